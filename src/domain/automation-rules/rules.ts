import type { Static } from 'typebox';
import type { CreateRuleBody, UpdateRuleBody } from '../../contract/automation-rules.js';
import type { AutomationRule, Db, TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { conflict, invalid, notFound } from '../errors.js';
import { toPage, type PageRequest } from '../pagination.js';
import { checkRateOptions } from '../orders/index.js';
import type { RateOptions } from '../../contract/rate-strategy.js';
import * as store from './store.js';

// CRUD of automation rules (docs/automation.md). Shapes are checked by the TypeBox contract
// (unknown fields, wrong types: 400 naming the path); this checks what the schema cannot: that
// the carrier integration and merchant named exist for the team (400 naming the path). Positions
// stay dense 1..n: a create, move or delete renumbers the team's list in the same transaction.
// Versioning: every update bumps `version` and records updated_by_key_id / updated_at; an update
// may carry `version` (compare-and-set, 409 when the rule moved on).

export type CreateRule = Static<typeof CreateRuleBody>;
export type UpdateRule = Static<typeof UpdateRuleBody>;
export interface Actor {
  teamId: string;
  keyId: string | null;
  keyName?: string | null;
}

export const ruleView = (r: AutomationRule) => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  position: r.position,
  merchant_team_id: r.merchant_team_id,
  conditions: r.conditions as Record<string, unknown>,
  actions: r.actions as Record<string, unknown>,
  version: r.version,
  fulfiller_team_id: r.team_id,
  created_by_key_id: r.created_by_key_id,
  updated_by_key_id: r.updated_by_key_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const snapshot = (r: AutomationRule) => ({
  name: r.name,
  enabled: r.enabled,
  position: r.position,
  merchant_team_id: r.merchant_team_id,
  conditions: r.conditions,
  actions: r.actions,
  version: r.version,
});

/** History (GET …/automation-rules/{id}/versions): one row per change, in the change's transaction. */
async function recordVersion(
  tx: TxClient,
  actor: Actor,
  change: 'CREATED' | 'UPDATED' | 'DELETED',
  before: AutomationRule | null,
  after: AutomationRule | null,
) {
  const rule = (after ?? before)!;
  await store.insertRuleVersion(tx, {
    team_id: actor.teamId,
    rule_id: rule.id,
    version: rule.version,
    change,
    key_id: actor.keyId,
    key_name: actor.keyName ?? null,
    before: before ? (snapshot(before) as object) : undefined,
    after: after ? (snapshot(after) as object) : undefined,
  });
}

async function checkReferences(tx: TxClient, teamId: string, body: Partial<CreateRule>) {
  const ci = body.actions?.carrier_integration_id;
  if (ci && !(await store.teamIntegrationExists(tx, teamId, ci))) {
    throw invalid('body.actions.carrier_integration_id', `no carrier integration ${ci} in this team`);
  }
  const m = body.merchant_team_id;
  if (m && !(await store.teamExists(tx, m))) {
    throw invalid('body.merchant_team_id', `no team ${m}`);
  }
  const w = body.actions?.warehouse_id;
  if (w && !(await store.teamWarehouseExists(tx, teamId, w))) {
    throw invalid('body.actions.warehouse_id', `no warehouse ${w} in this team`);
  }
  if (body.actions?.warehouse_only && !w) throw invalid('body.actions.warehouse_only', 'warehouse_only needs warehouse_id');
  if (body.actions) checkRateOptions(body.actions as RateOptions, 'body.actions');
}

/** Puts `id` at `position` (1-based, clamped) and renumbers the rest 1..n. */
async function place(tx: TxClient, teamId: string, id: string | null, position: number | undefined) {
  const rows = await store.findRulePositions(tx, teamId);
  const ids = rows.map((r) => r.id).filter((x) => x !== id);
  if (id) ids.splice(Math.min(Math.max((position ?? ids.length + 1) - 1, 0), ids.length), 0, id);
  const at = new Map(rows.map((r) => [r.id, r.position]));
  for (const [i, rid] of ids.entries()) {
    if (at.get(rid) !== i + 1) await store.setRulePosition(tx, rid, i + 1);
  }
}

export async function createRule(db: Db, actor: Actor, body: CreateRule) {
  return transaction(db, async (tx) => {
    await checkReferences(tx, actor.teamId, body);
    const last = await store.countTeamRules(tx, actor.teamId);
    const row = await store.insertRule(tx, {
      team_id: actor.teamId,
      merchant_team_id: body.merchant_team_id ?? null,
      name: body.name,
      enabled: body.enabled ?? true,
      position: last + 1,
      conditions: body.conditions as object,
      actions: body.actions as object,
      created_by_key_id: actor.keyId,
      updated_by_key_id: actor.keyId,
    });
    if (body.position !== undefined) await place(tx, actor.teamId, row.id, body.position);
    const created = await store.findRuleOrThrow(tx, row.id);
    await recordVersion(tx, actor, 'CREATED', null, created);
    return ruleView(created);
  });
}

export async function getRule(db: Db, teamId: string, id: string) {
  const row = await store.findTeamRule(db.prisma, teamId, id);
  if (!row) throw notFound('Automation rule', id);
  return ruleView(row);
}

export async function listRules(db: Db, teamId: string, q: PageRequest & { merchant_team_id?: string }) {
  const rows = await store.findRulePage(db.prisma, teamId, q.merchant_team_id, q.page * q.limit, q.limit + 1);
  const page = toPage(rows.map(ruleView), { ...q, cursor: undefined });
  return { ...page, meta: { ...page.meta, next_cursor: null } };
}

export async function updateRule(db: Db, actor: Actor, id: string, body: UpdateRule) {
  return transaction(db, async (tx) => {
    const cur = await store.findTeamRule(tx, actor.teamId, id);
    if (!cur) throw notFound('Automation rule', id);
    if (body.version !== undefined && body.version !== cur.version) {
      throw conflict(`Automation rule ${id} is at version ${cur.version}, not ${body.version}.`, { version: cur.version });
    }
    await checkReferences(tx, actor.teamId, body as Partial<CreateRule>);
    const data: Record<string, unknown> = { version: cur.version + 1, updated_by_key_id: actor.keyId };
    for (const k of ['name', 'enabled', 'merchant_team_id', 'conditions', 'actions'] as const) {
      if (body[k] !== undefined) data[k] = body[k];
    }
    // Compare-and-set on the version read: two concurrent updates never both claim version n+1.
    const res = await store.updateRuleIfVersion(tx, id, cur.version, data);
    if (res.count !== 1) throw conflict(`Automation rule ${id} changed while it was being updated; try again.`);
    if (body.position !== undefined) await place(tx, actor.teamId, id, body.position as number);
    const updated = await store.findRuleOrThrow(tx, id);
    await recordVersion(tx, actor, 'UPDATED', cur, updated);
    return ruleView(updated);
  });
}

export async function deleteRule(db: Db, actor: Actor, id: string) {
  await transaction(db, async (tx) => {
    const cur = await store.findTeamRule(tx, actor.teamId, id);
    if (!cur) throw notFound('Automation rule', id);
    // Compare-and-set on the version read: a concurrent update or delete makes this one a 409/404.
    const res = await store.deleteRuleIfVersion(tx, actor.teamId, id, cur.version);
    if (res.count !== 1) throw conflict(`Automation rule ${id} changed while it was being deleted; try again.`);
    await recordVersion(tx, actor, 'DELETED', cur, null);
    await place(tx, actor.teamId, null, undefined);
  });
}

/** A rule's changes, newest first; readable after the rule is deleted (404 when it never was the team's). */
export async function listRuleVersions(db: Db, teamId: string, ruleId: string, q: PageRequest) {
  const [rows, total] = await Promise.all([
    store.findRuleVersionPage(db.prisma, teamId, ruleId, q.page * q.limit, q.limit + 1),
    store.countRuleVersions(db.prisma, teamId, ruleId),
  ]);
  if (!total) {
    // A rule made before history existed has no rows yet: still the team's rule, an empty history.
    const rule = await store.teamRuleExists(db.prisma, teamId, ruleId);
    if (!rule) throw notFound('Automation rule', ruleId);
  }
  const page = toPage(
    rows.map((r) => ({ ...r, before: r.before as never, after: r.after as never })),
    { ...q, cursor: undefined },
    total,
  );
  return { ...page, meta: { ...page.meta, next_cursor: null } };
}
