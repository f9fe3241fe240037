import { newId } from '../../db/ids.js';
import { txHooks } from '../../db/tx.js';
import type { Db, TxClient } from '../../db/types.js';
import { auditContext, type AuditContext } from './context.js';
import { compactValue, isSecretName, REDACTED } from './redact.js';
import { insertAuditRow, setAuditEventTarget } from './store.js';

// Inserts a context's audit record inside the write transaction that commits it (the hook of
// src/db/tx.ts): no write without its record, and a rolled-back or retried attempt leaves none
// of its own. One prepared INSERT (store.ts), no Prisma runtime: it is on every fulfillment's
// path (docs/audit.md, "Cost").

const HUMAN_KEYS = ['sku', 'order_number', 'number', 'name', 'email', 'display_name', 'barcode'] as const;

const textOf = (v: unknown): string | null => (typeof v === 'string' && v ? v.slice(0, 200) : typeof v === 'number' ? String(v) : null);

/** The object a domain call returned, when it is one row-like object (not a list). */
function rowOf(result: unknown): Record<string, unknown> | undefined {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return undefined;
  return result as Record<string, unknown>;
}

/** {field: {from?, to}} of the request's fields: the resulting value where the result has it. */
export function changesOf(ctx: AuditContext, result?: Record<string, unknown>): Record<string, unknown> | null {
  const fields = ctx.fields;
  if (!fields || typeof fields !== 'object') return null;
  const out: Record<string, unknown> = {};
  for (const [name, sent] of Object.entries(fields)) {
    if (isSecretName(name)) {
      out[name] = { to: REDACTED };
      continue;
    }
    const to = result && name in result ? result[name] : sent;
    const change: Record<string, unknown> = { to: compactValue(to) };
    if (ctx.before && name in ctx.before) change.from = compactValue(ctx.before[name]);
    out[name] = change;
  }
  return Object.keys(out).length ? out : null;
}

/** The row's values, in the store's COLUMNS order. */
export function auditRow(ctx: AuditContext, result: unknown, id = newId()): unknown[] {
  const row = rowOf(result);
  const target = ctx.target;
  const targetId = target.id ?? textOf(row?.id) ?? null;
  let key = target.key ?? null;
  for (const k of HUMAN_KEYS) key ??= textOf(row?.[k]) ?? textOf(ctx.fields?.[k]) ?? textOf(ctx.before?.[k]);
  const changes = changesOf(ctx, row);
  const a = ctx.actor;
  return [
    id,
    a?.teamId ?? null,
    new Date(),
    a?.type ?? 'ANONYMOUS',
    a?.id ?? null,
    a?.name ?? null,
    a?.userId ?? null,
    ctx.ip ?? null,
    ctx.userAgent ? ctx.userAgent.slice(0, 300) : null,
    ctx.action,
    ctx.method ?? null,
    ctx.path ?? null,
    target.type ?? null,
    targetId,
    key,
    changes === null ? null : JSON.stringify(changes),
    ctx.traceId ?? null,
  ];
}

async function beforeCommit(tx: TxClient, result: unknown): Promise<void> {
  const ctx = auditContext();
  if (!ctx || !ctx.active || ctx.recorded) return;
  const id = newId();
  const row = auditRow(ctx, result, id);
  // On PostgreSQL sent with the COMMIT (one round trip: the record's cost is its insert alone).
  await insertAuditRow(tx, row);
  ctx.pending = true;
  ctx.eventId = id;
  ctx.eventTargetId = row[13] as string | null;
}

function committed(): void {
  const ctx = auditContext();
  if (ctx?.pending) {
    ctx.pending = false;
    ctx.recorded = true;
  }
}

/**
 * A create whose transaction returned no id: its record committed with the write, and its target
 * (id and human key) is the response's, written now. Resolves at once when the response names none.
 */
export async function recordResponseTarget(db: Db, ctx: AuditContext, response: unknown): Promise<void> {
  if (!ctx.eventId) return;
  const row = auditRow({ ...ctx, fields: undefined }, response, ctx.eventId);
  const [targetId, targetKey] = [row[13], row[14]] as Array<string | null>;
  if (targetId) await setAuditEventTarget(db.prisma, ctx.eventId, targetId, targetKey);
}

/** Records writes from now on in this process (buildApp and `fos admin` call it). */
export function installAuditHook(): void {
  txHooks.beforeCommit = beforeCommit;
  txHooks.committed = committed;
}
