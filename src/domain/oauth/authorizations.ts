import type { Db } from '../../db/types.js';
import { DomainError, forbidden, invalid } from '../errors.js';
import { hashToken } from '../keys/index.js';
import { currentAccess } from '../users/index.js';
import { clientLabel, getClient } from './clients.js';
import { grantable, presetPermissions, type Preset } from './presets.js';
import { CODE_PREFIX, issueTokens, newSecret, revokeConnectionTokens, sweepExpiredTokens, type TokenSet } from './tokens.js';
import { transaction } from '../../db/tx.js';
import * as store from './store.js';

// The authorization code flow: /authorize records the request and sends the person to the
// consent page; approving makes the connection and a one-time code; the token endpoint trades
// the code (once) for tokens. Every step is a compare-and-set, so a double click, a replayed code
// or two replicas racing cannot make two connections or two token sets.

export const REQUEST_TTL_MS = 15 * 60 * 1000;
export const CODE_TTL_MS = 2 * 60 * 1000;
export const CONNECTION_NAME_MAX = 100;

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  resource?: string;
  scopes?: string[];
}

export async function beginAuthorization(db: Db, req: AuthorizationRequest): Promise<string> {
  const row = await store.insertAuthorization(db.prisma, {
    client_id: req.clientId,
    redirect_uri: req.redirectUri,
    code_challenge: req.codeChallenge,
    state: req.state ?? null,
    resource: req.resource ?? null,
    scopes: req.scopes?.length ? req.scopes.join(' ') : null,
    expires_at: new Date(Date.now() + REQUEST_TTL_MS),
  });
  void store.deleteAuthorizationsExpiredBefore(db.prisma, new Date(Date.now() - REQUEST_TTL_MS)).catch(() => undefined);
  return row.id;
}

export interface PendingAuthorization {
  id: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
}

/** A request still waiting for the person's decision, or null (unknown, expired, decided). */
export async function pendingAuthorization(db: Db, id: string): Promise<PendingAuthorization | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const row = await store.findAuthorization(db.prisma, id);
  if (!row || row.decided_at || row.expires_at.getTime() <= Date.now()) return null;
  const client = await getClient(db, row.client_id);
  if (!client) return null;
  return { id, clientId: row.client_id, clientName: clientLabel(client), redirectUri: row.redirect_uri };
}

function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.href;
}

const expired = () => new DomainError('conflict', 'This sign-in request has expired or was already answered. Start again from your agent.');

export interface Approval {
  requestId: string;
  userId: string;
  teamId: string;
  preset: Preset;
  custom?: string[];
  name: string;
}

/** Approves: makes the connection and a one-time code. Returns where to send the browser. */
export async function approveAuthorization(db: Db, a: Approval): Promise<{ redirect: string; connectionId: string }> {
  const name = a.name.trim();
  if (!name || name.length > CONNECTION_NAME_MAX) throw invalid('name', `must be 1 to ${CONNECTION_NAME_MAX} characters`);
  const held = await currentAccess(db, a.userId, a.teamId);
  if (!held.size) throw forbidden('You are not a member of that team.');
  if (!held.has('WRITE_MCP')) throw forbidden('Connecting an agent needs the Write MCP permission on this team; ask a team admin.');
  const permissions = grantable(presetPermissions(a.preset, a.custom), held);
  if (!permissions.length) throw invalid('permissions', 'choose at least one permission that you hold on this team');

  const code = newSecret(CODE_PREFIX);
  const now = new Date();
  return transaction(db, async (tx) => {
    const row = await store.findAuthorization(tx, a.requestId);
    if (!row) throw expired();
    const client = await store.findClient(tx, row.client_id);
    if (!client) throw expired();
    const connection = await store.insertConnection(tx, {
      team_id: a.teamId,
      user_id: a.userId,
      client_id: row.client_id,
      client_name: clientLabel(client.metadata as { client_id: string }),
      name,
      preset: a.preset,
      permissions,
    });
    const taken = await store.decideAuthorization(tx, a.requestId, now, {
      decided_at: now,
      code_hash: hashToken(code),
      code_expires_at: new Date(now.getTime() + CODE_TTL_MS),
      connection_id: connection.id,
    });
    if (taken.count !== 1) throw expired(); // rolls back the connection
    return { redirect: redirectWith(row.redirect_uri, { code, state: row.state }), connectionId: connection.id };
  });
}

/** Denies: the client is told access_denied (its state returned), nothing is made. */
export async function denyAuthorization(db: Db, requestId: string): Promise<string> {
  const row = await store.findAuthorization(db.prisma, requestId);
  const taken = await store.decideAuthorization(db.prisma, requestId, new Date(), { decided_at: new Date() });
  if (!row || taken.count !== 1) throw expired();
  return redirectWith(row.redirect_uri, {
    error: 'access_denied',
    error_description: 'The person declined the connection.',
    state: row.state,
  });
}

async function codeRow(db: Db, clientId: string, code: string) {
  if (!code.startsWith(CODE_PREFIX) || code.length > 100) return null;
  const row = await store.findAuthorizationByCode(db.prisma, hashToken(code));
  return row && row.client_id === clientId ? row : null;
}

/** The PKCE challenge the code was requested with (null: unknown code, or another client's). */
export async function challengeForCode(db: Db, clientId: string, code: string): Promise<string | null> {
  return (await codeRow(db, clientId, code))?.code_challenge ?? null;
}

/**
 * Trades a code for tokens, once. Null when the code is unknown, expired, another client's, or
 * the redirect_uri or resource differ from the request's. A second use revokes what the first got.
 */
export async function exchangeCode(
  db: Db,
  clientId: string,
  code: string,
  redirectUri?: string,
  resource?: string,
): Promise<TokenSet | null> {
  const row = await codeRow(db, clientId, code);
  if (!row?.connection_id) return null;
  const connectionId = row.connection_id;
  sweepExpiredTokens(db);
  return transaction(db, async (tx) => {
    const now = new Date();
    const taken = await store.useAuthorizationCode(tx, row.id, now);
    if (taken.count !== 1) {
      if (row.used_at) await revokeConnectionTokens(tx, connectionId, now);
      return null;
    }
    if (redirectUri !== undefined && redirectUri !== row.redirect_uri) return null;
    if (resource !== undefined && row.resource !== null && resource !== row.resource) return null;
    const connection = await store.findConnectionWithUser(tx, connectionId);
    if (!connection || connection.state !== 'ACTIVE' || connection.user.state !== 'ACTIVE') return null;
    return issueTokens(tx, connectionId, resource ?? row.resource, now.getTime());
  });
}
