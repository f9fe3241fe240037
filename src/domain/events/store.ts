import { newId } from '../../db/ids.js';
import { keptTexts, type Dialect } from '../../db/dialect.js';
import type { Statements } from '../../db/statements.js';
import type { Db, OutboxEvent, Prisma, TxClient } from '../../db/types.js';
import { jsonRowsSql } from '../../db/values.js';

// The outbox's INSERT and the worker's "delivered" UPDATE on the write paths' prepared statements
// (src/db/statements.ts): every column the Prisma model would fill is given (id UUIDv7, both
// timestamps as the client writes them), so a row written here reads and sorts like one written
// through Prisma. The same INSERTs through Prisma where a transaction has no prepared statements,
// and the reads of a tracking push's order and shop (issue 38 item 4).

type Client = Db['prisma'] | TxClient;

/**
 * An event's delivered_at as it is written: NULL (due: the worker fans it out) when an active
 * endpoint of its team subscribes to its kind, else the bound instant: nobody is sent it, so no
 * worker pass reads, claims and writes it again (a billed fulfillment's eight charge.created
 * events, ~2.7 KB each, were each written twice more). The same rule as the worker's pass
 * (webhooks/dispatch.ts matchesEndpoint), which still marks events whose endpoints went away
 * since. A tracking.push is always due: the sales channel is sent it.
 */
function deliveredAtSql(d: Dialect): string {
  const subscribes = `${d.jsonSql.arrayHas('e."events"', "CAST('*' AS TEXT)")} OR ${d.jsonSql.arrayHas('e."events"', 'CAST(? AS TEXT)')}`;
  return `CASE WHEN EXISTS (SELECT 1 FROM "webhook_endpoints" e WHERE e."team_id" = ? AND e."active" = ? AND (${subscribes}))
    THEN NULL ELSE ${d.dateParam} END`;
}

// The INSERT's text per dialect and rows' shape (which rows are pushes).
const insertTexts = keptTexts(200);

function insertSql(d: Dialect, pushes: readonly boolean[]): string {
  const row = (push: boolean) => `(?, ?, ?, ${d.jsonParam}, ?, ?, ${push ? 'NULL' : deliveredAtSql(d)})`;
  return insertTexts(
    `${d.provider}:${pushes.map((p) => (p ? 'p' : 'e')).join('')}`,
    () =>
      `INSERT INTO "outbox_events" ("id", "team_id", "kind", "payload", "next_attempt_at", "created_at", "delivered_at") VALUES ${pushes.map(row).join(', ')}`,
  );
}

/**
 * Writes events; returns what was written of each but its delivery state (see deliveredAtSql).
 * `atCommit`: on PostgreSQL the INSERT leaves with the COMMIT (statements.ts runAtCommit).
 */
export async function insertEvents(
  st: Statements,
  events: ReadonlyArray<{ teamId: string; kind: string; payload: Record<string, unknown>; text?: string }>,
  opts: { atCommit?: boolean } = {},
): Promise<WrittenEvent[]> {
  if (!events.length) return [];
  // One payload announced to both teams is serialised once.
  const texts = new Map<object, string>();
  const textOf = (p: object) => texts.get(p) ?? texts.set(p, JSON.stringify(p)).get(p)!;
  const now = new Date();
  const ids = events.map(() => newId());
  const pushes = events.map((e) => e.kind === PUSH);
  const sql = insertSql(st.dialect, pushes);
  const params: unknown[] = [];
  events.forEach((e, i) => {
    params.push(ids[i], e.teamId, e.kind, e.text ?? textOf(e.payload), now, now);
    if (!pushes[i]) params.push(e.teamId, true, e.kind, now);
  });
  await (opts.atCommit && st.runAtCommit ? st.runAtCommit(sql, params) : st.run(sql, params));
  return events.map((e, i) => ({
    id: ids[i],
    team_id: e.teamId,
    kind: e.kind,
    payload: e.payload as OutboxEvent['payload'],
    created_at: now,
  }));
}

/** An event as written: its delivery state is the database's (deliveredAtSql). */
export type WrittenEvent = Pick<OutboxEvent, 'id' | 'team_id' | 'kind' | 'payload' | 'created_at'>;

const PUSH = 'tracking.push';

/**
 * The outbox worker's events marked delivered, each with its result where it has one ([event id,
 * result or null]), in ONE UPDATE … FROM (rows) while they are still its claim's and undelivered;
 * returns how many it marked (fewer: another worker took some over after a lease ran out). The
 * events are found by their ids: on SQLite `delivered_at IS NULL` had the plan walk every
 * undelivered event for each of the rows.
 */
export async function markDelivered(st: Statements, claimId: string, now: Date, rows: Array<[string, object | null]>): Promise<number> {
  const values = jsonRowsSql(st.dialect.provider, [
    { name: 'id', pg: 'TEXT' },
    { name: 'result', pg: 'JSONB' },
  ]);
  return st.run(
    `WITH "v" AS (${values})
     UPDATE "outbox_events" SET "delivered_at" = ?, "last_error" = NULL, "result" = COALESCE(v."result", "outbox_events"."result")
     FROM "v" WHERE "outbox_events"."id" = v."id" AND "outbox_events"."claim_id" = ?
       AND ${st.dialect.filterOnly('"outbox_events"."delivered_at"')} IS NULL`,
    [JSON.stringify(rows), now, claimId],
  );
}

/** One event through Prisma (a transaction without prepared statements). */
export function createEvent(tx: TxClient, data: Prisma.OutboxEventUncheckedCreateInput) {
  return tx.outboxEvent.create({ data });
}

/** Several events through Prisma in one INSERT (a transaction without prepared statements). */
export function createEvents(tx: TxClient, data: Prisma.OutboxEventCreateManyInput[]) {
  return tx.outboxEvent.createMany({ data });
}

/** The order a tracking push is about: its number and shop. */
export function findPushOrder(client: Client, id: string) {
  return client.order.findUnique({ where: { id }, select: { id: true, order_number: true, shop_id: true } });
}

/** The shop's platform. */
export function findShopType(client: Client, id: string) {
  return client.shop.findUnique({ where: { id }, select: { shop_type: true } });
}
