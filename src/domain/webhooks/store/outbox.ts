import { dateOrNull, placeholders, type Dialect } from '../../../db/dialect.js';
import { newId } from '../../../db/ids.js';
import { inLists } from '../../../db/in-lists.js';
import { readsOf } from '../../../db/reads.js';
import { sqliteArg, statementsOf, type Statements } from '../../../db/statements.js';
import { transaction } from '../../../db/tx.js';
import type { Db, OutboxEvent, WebhookDelivery, WebhookEndpoint } from '../../../db/types.js';
import { insertValues, jsonRowsSql } from '../../../db/values.js';

// The outbox worker's pass (../dispatch.ts) on the raw driver, not Prisma's client: in a CPU profile
// of the fulfillment bench Prisma's JS and query compiler spent ~0.17 ms a fulfillment on SQLite
// and ~0.39 ms on PostgreSQL in these few calls, most of it in the pass's polls. Reads run outside
// transactions (src/db/reads.ts: SQLite's read-only connection, PostgreSQL's pool), writes in
// transaction() (src/db/tx.ts) on its prepared statements; rows are typed here as Prisma types the
// models (dates as Date, JSON parsed, booleans), so the bodies POSTed are the same bytes.
// Every write keeps the claim's compare-and-set: it matches a row only while it is still due (the
// claim) or still this claim's (the outcomes). webhook_deliveries' updated_at is set as Prisma's
// @updatedAt set it, on every write.

type Row = Record<string, unknown>;

/** Every column of a model, checked against Prisma's type: a column the model gains fails the build here. */
const columns =
  <M>() =>
  <const C extends ReadonlyArray<keyof M & string>>(
    c: C,
    ..._all: [Exclude<keyof M, C[number]>] extends [never] ? [] : [missing: Exclude<keyof M, C[number]>]
  ) =>
    c;
// prettier-ignore
const EVENT = columns<OutboxEvent>()([
  'id', 'team_id', 'kind', 'payload', 'attempts', 'next_attempt_at', 'delivered_at', 'failed_at', 'last_error', 'result', 'claim_id', 'created_at',
]);
// prettier-ignore
const ENDPOINT = columns<WebhookEndpoint>()([
  'id', 'team_id', 'url', 'description', 'events', 'secret', 'active', 'test', 'created_at', 'updated_at',
]);
// prettier-ignore
const DELIVERY = columns<WebhookDelivery>()([
  'id', 'endpoint_id', 'event_id', 'event_kind', 'status', 'attempts', 'next_attempt_at', 'response_status', 'last_error', 'delivered_at', 'claim_id', 'created_at', 'updated_at',
]);
const list = (alias: string, cols: readonly string[], prefix = '') =>
  cols.map((c) => `${alias}."${c}"${prefix ? ` AS "${prefix}${c}"` : ''}`).join(', ');

// ---------- typing: rows as Prisma reads them ----------

/** A row typed in place by its columns' kinds, as the dialect reads them (JSON parsed, dates as Date, booleans). */
const typer =
  <T>(kinds: { json?: string[]; dates?: string[]; maybeDates?: string[]; bools?: string[] }) =>
  (d: Dialect, r: Row): T => {
    for (const c of kinds.json ?? []) r[c] = d.json(r[c]);
    for (const c of kinds.dates ?? []) r[c] = d.date(r[c]);
    for (const c of kinds.maybeDates ?? []) r[c] = dateOrNull(d, r[c]);
    for (const c of kinds.bools ?? []) r[c] = d.bool(r[c]);
    return r as T;
  };
const eventOf = typer<OutboxEvent>({
  json: ['payload', 'result'],
  dates: ['next_attempt_at', 'created_at'],
  maybeDates: ['delivered_at', 'failed_at'],
});
const endpointOf = typer<WebhookEndpoint>({ json: ['events'], bools: ['active', 'test'], dates: ['created_at', 'updated_at'] });
const deliveryOf = typer<WebhookDelivery>({ dates: ['next_attempt_at', 'created_at', 'updated_at'], maybeDates: ['delivered_at'] });

// ---------- claims (events and deliveries alike) ----------

export type Claimable = 'outboxEvent' | 'webhookDelivery';

/**
 * Each claimable table, the condition that keeps a row due (its columns only filter: the claim's
 * ids are read by the primary key, not by the due index over a whole backlog), and the columns
 * its writes stamp.
 */
const CLAIMABLE = {
  outboxEvent: {
    table: 'outbox_events',
    due: (d: Dialect) => `${d.filterOnly('"delivered_at"')} IS NULL AND ${d.filterOnly('"failed_at"')} IS NULL`,
    stamp: '',
  },
  webhookDelivery: {
    table: 'webhook_deliveries',
    due: (d: Dialect) => `${d.filterOnly('"status"')} = 'PENDING'`,
    stamp: ', "updated_at" = ?',
  },
} as const;

/**
 * Stamps the rows of `ids` still due (and next_attempt_at <= now) with the claim id, the lease and
 * one more attempt, in one UPDATE (per IN_LIST_MAX ids) of one transaction; the ids it claimed
 * (RETURNING: a row another worker claimed since our read no longer matches, and is not among them).
 * `deliveredAt` (events only): the same UPDATE marks them delivered too, for events with nothing to
 * send (dispatch.ts): their rows are written once instead of twice.
 */
export async function claimDueRows(
  db: Db,
  table: Claimable,
  ids: string[],
  now: Date,
  claimId: string,
  leaseUntil: Date,
  opts: { deliveredAt?: Date } = {},
): Promise<Set<string>> {
  const t = CLAIMABLE[table];
  const stamped = t.stamp ? [new Date()] : [];
  const delivered = table === 'outboxEvent' && opts.deliveredAt ? [opts.deliveredAt] : [];
  return transaction(db, async (tx) => {
    const st = statementsOf(tx, db.provider);
    const taken = new Set<string>();
    for (const part of inLists(ids)) {
      const rows = await st.all<{ id: string }>(
        `UPDATE "${t.table}" SET "claim_id" = ?, "next_attempt_at" = ?, "attempts" = "attempts" + 1${t.stamp}${delivered.length ? ', "delivered_at" = ?, "last_error" = NULL' : ''}
         WHERE "id" IN (${placeholders(part.length)}) AND ${t.due(st.dialect)} AND ${st.dialect.filterOnly('"next_attempt_at"')} <= ?
         RETURNING "id"`,
        [claimId, leaseUntil, ...stamped, ...delivered, ...part, now],
      );
      for (const r of rows) taken.add(r.id);
    }
    return taken;
  });
}

// ---------- events ----------

/**
 * A due event as the worker's pass reads it: the payload only of a 'tracking.push' (the sales
 * channel is sent it); every other event is fanned out by id and kind, its payload read when a
 * delivery is sent (findEvents). A billed fulfillment's eight charge.created events are ~2.7 KB
 * each, read and parsed only to be marked delivered before (docs/performance.md).
 */
export type DueEvent = Omit<OutboxEvent, 'payload'> & { payload: OutboxEvent['payload'] | null };

// Every column of an event but the payload, which only a push's row carries.
const DUE_EVENT = `${list(
  'o',
  EVENT.filter((c) => c !== 'payload'),
)}, CASE WHEN o."kind" = 'tracking.push' THEN o."payload" END AS "payload"`;

/** Up to `take` events still due (neither delivered nor failed) whose next attempt is due, oldest attempt first. */
export async function findDueEvents(db: Db, now: Date, take: number): Promise<DueEvent[]> {
  const r = readsOf(db);
  const rows = await r.all<Row>(
    `SELECT ${DUE_EVENT} FROM "outbox_events" o
     WHERE o."delivered_at" IS NULL AND o."failed_at" IS NULL AND o."next_attempt_at" <= ?
     ORDER BY o."next_attempt_at", o."id" LIMIT ?`,
    [now, take],
  );
  return rows.map((row) => eventOf(r.dialect, row) as DueEvent);
}

/** The events of these ids (those that exist). */
export async function findEvents(db: Db, ids: string[]): Promise<OutboxEvent[]> {
  const r = readsOf(db);
  const out: OutboxEvent[] = [];
  for (const part of inLists(ids)) {
    const rows = await r.all<Row>(`SELECT ${list('o', EVENT)} FROM "outbox_events" o WHERE o."id" IN (${placeholders(part.length)})`, part);
    for (const row of rows) out.push(eventOf(r.dialect, row));
  }
  return out;
}

/**
 * Writes an event's failed attempt while it is still this claim's and undelivered: `failedAt`
 * (the last attempt) or the next attempt's time, and the error.
 */
export function updateClaimedEvent(
  db: Db,
  id: string,
  claimId: string,
  outcome: { failedAt: Date } | { nextAttemptAt: Date },
  error: string,
) {
  const [column, at] = 'failedAt' in outcome ? ['failed_at', outcome.failedAt] : ['next_attempt_at', outcome.nextAttemptAt];
  return transaction(db, (tx) =>
    statementsOf(tx, db.provider).run(
      `UPDATE "outbox_events" SET "${column}" = ?, "last_error" = ? WHERE "id" = ? AND "claim_id" = ? AND "delivered_at" IS NULL`,
      [at, error, id, claimId],
    ),
  );
}

// ---------- endpoints ----------

/** The team's active endpoints. */
export async function findActiveEndpoints(db: Db, teamId: string): Promise<WebhookEndpoint[]> {
  const r = readsOf(db);
  const rows = await r.all<Row>(`SELECT ${list('e', ENDPOINT)} FROM "webhook_endpoints" e WHERE e."team_id" = ? AND e."active" = ?`, [
    teamId,
    true,
  ]);
  return rows.map((row) => endpointOf(r.dialect, row));
}

// ---------- deliveries ----------

/**
 * Which deliveries of these events to these endpoints exist: by the unique (endpoint_id, event_id)
 * index, endpoint first (an event's ids alone would read every delivery there is).
 */
export async function findDeliveryKeys(
  db: Db,
  endpointIds: string[],
  eventIds: string[],
): Promise<Array<{ endpoint_id: string; event_id: string }>> {
  const out: Array<{ endpoint_id: string; event_id: string }> = [];
  for (const endpoint of endpointIds)
    for (const part of inLists(eventIds))
      out.push(
        ...(await readsOf(db).all<{ endpoint_id: string; event_id: string }>(
          `SELECT "endpoint_id", "event_id" FROM "webhook_deliveries" WHERE "endpoint_id" = ? AND "event_id" IN (${placeholders(part.length)})`,
          [endpoint, ...part],
        )),
      );
  return out;
}

const DELIVERY_HEAD = `INSERT INTO "webhook_deliveries" ("id", "endpoint_id", "event_id", "event_kind", "status", "attempts", "next_attempt_at", "created_at", "updated_at")`;

/**
 * New PENDING deliveries, first attempt at `nextAttemptAt`, in the fan-out's transaction (`st`);
 * every column Prisma's createMany filled is given (id UUIDv7, both timestamps now).
 */
export async function insertDeliveries(
  st: Statements,
  rows: ReadonlyArray<{ endpoint_id: string; event_id: string; event_kind: string }>,
  nextAttemptAt: Date,
): Promise<void> {
  if (!rows.length) return;
  const now = new Date();
  if (st.dialect.provider === 'postgresql') {
    const cells = jsonRowsSql(
      'postgresql',
      ['id', 'endpoint_id', 'event_id', 'event_kind'].map((name) => ({ name, pg: 'TEXT' })),
      [`'PENDING'`, '0', 'CAST(? AS TIMESTAMP(3))', 'CAST(? AS TIMESTAMP(3))', 'CAST(? AS TIMESTAMP(3))'],
    );
    const json = JSON.stringify(rows.map((r) => [newId(), r.endpoint_id, r.event_id, r.event_kind]));
    await st.run(`${DELIVERY_HEAD} ${cells}`, [nextAttemptAt, now, now, json]);
    return;
  }
  const [next, at] = [sqliteArg(nextAttemptAt), sqliteArg(now)];
  await insertValues(
    st,
    DELIVERY_HEAD,
    rows.map((r) => [newId(), r.endpoint_id, r.event_id, r.event_kind, 'PENDING', 0, next, at, at]),
  );
}

/**
 * Up to `take` PENDING deliveries of active endpoints whose next attempt is due, each with its
 * endpoint (one JOIN), oldest attempt first. Run by every pass, idle ones too.
 */
export async function findDueDeliveries(db: Db, now: Date, take: number): Promise<Array<WebhookDelivery & { endpoint: WebhookEndpoint }>> {
  const r = readsOf(db);
  const rows = await r.all<Row>(
    `SELECT ${list('d', DELIVERY)}, ${list('e', ENDPOINT, 'e_')}
     FROM "webhook_deliveries" d JOIN "webhook_endpoints" e ON e."id" = d."endpoint_id"
     WHERE d."status" = 'PENDING' AND d."next_attempt_at" <= ? AND e."active" = ?
     ORDER BY d."next_attempt_at", d."id" LIMIT ?`,
    [now, true, take],
  );
  return rows.map((row) => {
    const endpoint: Row = {};
    for (const c of ENDPOINT) {
      endpoint[c] = row[`e_${c}`];
      delete row[`e_${c}`];
    }
    return Object.assign(deliveryOf(r.dialect, row), { endpoint: endpointOf(r.dialect, endpoint) });
  });
}

/**
 * Writes a delivery's failed attempt while it is this claim's and PENDING: the response's status
 * and error, and FAILED (the last attempt) or the next attempt's time.
 */
export function updateClaimedDelivery(
  db: Db,
  id: string,
  claimId: string,
  outcome: { responseStatus: number | null; error: string | null; nextAttemptAt: Date | null },
) {
  const set = outcome.nextAttemptAt ? `"next_attempt_at" = ?` : `"status" = 'FAILED'`;
  const params = [
    outcome.responseStatus,
    outcome.error,
    ...(outcome.nextAttemptAt ? [outcome.nextAttemptAt] : []),
    new Date(),
    id,
    claimId,
  ];
  return transaction(db, (tx) =>
    statementsOf(tx, db.provider).run(
      `UPDATE "webhook_deliveries" SET "response_status" = ?, "last_error" = ?, ${set}, "updated_at" = ?
       WHERE "id" = ? AND "claim_id" = ? AND "status" = 'PENDING'`,
      params,
    ),
  );
}

/**
 * Marks deliveries DELIVERED with their response's status (ids by status) while they are this
 * claim's and PENDING, one UPDATE per status (per IN_LIST_MAX ids) in one transaction; the count.
 */
export function markClaimedDelivered(db: Db, idsByStatus: ReadonlyMap<number, string[]>, claimId: string, now: Date): Promise<number> {
  const updatedAt = new Date();
  return transaction(db, async (tx) => {
    const st = statementsOf(tx, db.provider);
    let count = 0;
    for (const [status, ids] of idsByStatus)
      for (const part of inLists(ids))
        count += await st.run(
          `UPDATE "webhook_deliveries" SET "status" = 'DELIVERED', "response_status" = ?, "last_error" = NULL, "delivered_at" = ?, "updated_at" = ?
           WHERE "id" IN (${placeholders(part.length)}) AND "claim_id" = ? AND ${st.dialect.filterOnly('"status"')} = 'PENDING'`,
          [status, now, updatedAt, ...part, claimId],
        );
    return count;
  });
}
