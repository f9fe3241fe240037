import { newId } from '../../db/ids.js';
import type { Statements } from '../../db/statements.js';
import type { OutboxEvent } from '../../db/types.js';

// The outbox's INSERT on the write paths' prepared statements (src/db/statements.ts): every
// column the Prisma model would fill is given (id UUIDv7, both timestamps as the client writes
// them), so a row written here reads and sorts like one written through Prisma.

export async function insertEvents(
  st: Statements,
  events: ReadonlyArray<{ teamId: string; kind: string; payload: Record<string, unknown> }>,
): Promise<OutboxEvent[]> {
  if (!events.length) return [];
  const now = new Date();
  const ids = events.map(() => newId());
  const row = `(?, ?, ?, ${st.dialect.jsonParam}, ?, ?)`;
  await st.run(
    `INSERT INTO "outbox_events" ("id", "team_id", "kind", "payload", "next_attempt_at", "created_at") VALUES ${events.map(() => row).join(', ')}`,
    events.flatMap((e, i) => [ids[i], e.teamId, e.kind, JSON.stringify(e.payload), now, now]),
  );
  return events.map((e, i) => ({
    id: ids[i],
    team_id: e.teamId,
    kind: e.kind,
    payload: e.payload as OutboxEvent['payload'],
    attempts: 0,
    next_attempt_at: now,
    delivered_at: null,
    failed_at: null,
    last_error: null,
    result: null,
    claim_id: null,
    created_at: now,
  }));
}
