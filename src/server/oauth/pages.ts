import type { Catalog, Operation } from '../mcp/catalog.js';
import type { Permission } from '../../contract/permissions.js';
import { CONNECTION_NAME_MAX, type PendingAuthorization } from '../../domain/oauth/index.js';
import {
  PRESET_DESCRIPTIONS,
  PRESET_LABELS,
  PRESETS,
  presetPermissions,
  grantable,
  CONNECTION_PERMISSIONS,
  type Preset,
} from '../../domain/oauth/index.js';
import { errorBox, esc, hidden } from './html.js';

// Bodies of the sign-in, team choice, consent and connections pages (html.ts sends them).

/** The catalog's operations a permission set allows, grouped by tag (the agent tools' own catalog). */
export function operationsByTag(catalog: Catalog, permissions: readonly Permission[]): Map<string, Operation[]> {
  const allowed = new Set<string>(permissions);
  const groups = new Map<string, Operation[]>();
  for (const op of catalog.operations) {
    if (!op.permission || !allowed.has(op.permission)) continue;
    const tag = op.tags[0] ?? 'Other';
    groups.set(tag, [...(groups.get(tag) ?? []), op]);
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}

function operationList(catalog: Catalog, permissions: readonly Permission[]): string {
  const groups = operationsByTag(catalog, permissions);
  const count = [...groups.values()].reduce((n, ops) => n + ops.length, 0);
  if (!count) return '<p class="muted">No operations.</p>';
  const body = [...groups]
    .map(
      ([tag, ops]) =>
        `<h3 class="muted">${esc(tag)}</h3><ul class="ops">${ops
          .map((op) => `<li>${esc(op.summary || op.key)} <code>${esc(op.key)}</code></li>`)
          .join('')}</ul>`,
    )
    .join('');
  return `<details><summary>Operations it allows (${count})</summary>${body}</details>`;
}

export function signInPage(o: { csrf: string; next: string; error?: string; clientName?: string; email?: string }) {
  const why = o.clientName
    ? `<p><strong>${esc(o.clientName)}</strong> wants to connect to fos on your behalf. Sign in to review it.</p>`
    : '';
  return `<h1>Sign in</h1>${errorBox(o.error)}<div class="card">${why}
<form method="post" action="/oauth/sign-in">${hidden('csrf', o.csrf)}${hidden('next', o.next)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${esc(o.email)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<div class="actions"><button class="primary" type="submit">Sign in</button></div></form></div>`;
}

export function teamChoicePage(o: { pending: PendingAuthorization; teams: { teamId: string; teamName: string }[] }) {
  const choices = o.teams
    .map(
      (t, i) => `<label class="choice"><input type="radio" name="team" value="${esc(t.teamId)}"${i === 0 ? ' checked' : ''}>
<span><strong>${esc(t.teamName)}</strong></span></label>`,
    )
    .join('');
  return `<h1>Choose a team</h1><div class="card"><p><strong>${esc(o.pending.clientName)}</strong> will work in one team. Which one?</p>
<form method="get" action="/oauth/consent">${hidden('request', o.pending.id)}${choices}
<div class="actions"><button class="primary" type="submit">Continue</button></div></form></div>`;
}

export interface ConsentView {
  pending: PendingAuthorization;
  personName: string;
  team: { teamId: string; teamName: string; permissions: Set<Permission> };
  severalTeams: boolean;
  catalog: Catalog;
  csrf: string;
  error?: string;
  preset?: Preset;
  custom?: string[];
  name?: string;
}

export function consentPage(v: ConsentView) {
  const chosen = v.preset ?? 'READ_ONLY';
  const presets = PRESETS.map((p) => {
    const perms = grantable(presetPermissions(p), v.team.permissions);
    const list = p === 'CUSTOM' ? '' : operationList(v.catalog, perms);
    return `<label class="choice"><input type="radio" name="preset" value="${p}"${p === chosen ? ' checked' : ''}>
<span><strong>${esc(PRESET_LABELS[p])}</strong><span class="muted">${esc(PRESET_DESCRIPTIONS[p])}</span>${list}</span></label>`;
  }).join('');
  const custom = CONNECTION_PERMISSIONS.map((p) => {
    const held = v.team.permissions.has(p);
    const checked = held && (v.custom ?? []).includes(p);
    return `<label><input type="checkbox" name="permissions" value="${p}"${checked ? ' checked' : ''}${held ? '' : ' disabled'}> ${esc(p)}${held ? '' : ' <span class="muted">(you do not hold it)</span>'}</label>`;
  }).join('');
  const back = new URL(v.pending.redirectUri);
  const change = v.severalTeams ? ` <a href="/oauth/consent?request=${esc(encodeURIComponent(v.pending.id))}">Change team</a>` : '';
  return `<h1>Connect ${esc(v.pending.clientName)}</h1>${errorBox(v.error)}
<div class="card"><p>Signed in as <strong>${esc(v.personName)}</strong>. Team: <strong>${esc(v.team.teamName)}</strong>.${change}</p>
<p class="muted">The agent gets short-lived tokens for this team's agent endpoint, never your password or an API key. It can do at most
what you can do yourself, and never manage keys, webhooks or agent connections. You can disconnect it at any time.</p></div>
<form method="post" action="/oauth/consent" class="card">${hidden('csrf', v.csrf)}${hidden('request', v.pending.id)}${hidden('team', v.team.teamId)}
<h2>What may it do?</h2>${presets}
<details${chosen === 'CUSTOM' ? ' open' : ''}><summary>Choose the custom permissions</summary><div class="perms">${custom}</div></details>
<h2>Name this connection</h2><label for="name" class="muted">Shown in your connections list</label>
<input id="name" name="name" type="text" required maxlength="${CONNECTION_NAME_MAX}" value="${esc(v.name ?? v.pending.clientName)}">
<p class="muted">After you approve, you are sent back to <strong>${esc(back.protocol.startsWith('http') ? back.host : back.protocol)}</strong>.</p>
<div class="actions"><button class="primary" type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="deny">Deny</button></div></form>`;
}

export function noAccessPage(o: { pending: PendingAuthorization; personName: string; csrf: string }) {
  return `<h1>You cannot connect an agent</h1><div class="card error"><p>Signed in as <strong>${esc(o.personName)}</strong>. Connecting an agent
needs the Write MCP permission on a team, and you hold it on none. Ask a team admin.</p></div>
<form method="post" action="/oauth/consent" class="card">${hidden('csrf', o.csrf)}${hidden('request', o.pending.id)}
<div class="actions"><button type="submit" name="action" value="deny">Return to ${esc(o.pending.clientName)}</button></div></form>`;
}

export interface ConnectionRow {
  id: string;
  name: string;
  client_name: string;
  team_id: string;
  team_name: string;
  user_name: string;
  permissions: string[];
  status: string;
  created_at: Date;
  last_used_at: Date | null;
}

export function connectionsPage(o: { personName: string; csrf: string; rows: ConnectionRow[]; notice?: string }) {
  const when = (d: Date | null) => (d ? esc(d.toISOString().replace('T', ' ').slice(0, 16)) + ' UTC' : 'never');
  const rows = o.rows
    .map(
      (c) => `<tr><td><strong>${esc(c.name)}</strong><br><span class="muted">${esc(c.client_name)}</span></td>
<td>${esc(c.team_name)}<br><span class="muted">${esc(c.user_name)}</span></td><td>${c.permissions.map(esc).join(', ') || '—'}</td>
<td>${esc(c.status)}</td><td>${when(c.last_used_at)}</td><td>${
        c.status === 'REVOKED'
          ? ''
          : `<form method="post" action="/oauth/connections/disconnect">
${hidden('csrf', o.csrf)}${hidden('id', c.id)}${hidden('team', c.team_id)}<button class="danger" type="submit">Disconnect</button></form>`
      }</td></tr>`,
    )
    .join('');
  const table = o.rows.length
    ? `<table><thead><tr><th>Connection</th><th>Team · person</th><th>Permissions</th><th>Status</th><th>Last used</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">No agent connections yet.</p>';
  return `<h1>MCP connections</h1>${o.notice ? `<div class="card" role="status">${esc(o.notice)}</div>` : ''}
<div class="card"><p>Signed in as <strong>${esc(o.personName)}</strong>. Connections of the teams where you hold Write MCP.</p>${table}</div>
<form method="post" action="/oauth/sign-out">${hidden('csrf', o.csrf)}<button type="submit">Sign out</button></form>`;
}

export const messagePage = (title: string, text: string) => `<h1>${esc(title)}</h1><div class="card"><p>${esc(text)}</p></div>`;
