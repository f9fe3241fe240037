import { randomUUID } from 'node:crypto';
import { portableStatementsOf } from '../../db/statements.js';
import type { Db, TxClient } from '../../db/types.js';

// The idempotency keys' data access (issues 24 and 38): the claim and the answer, on the
// transaction's prepared statements (src/db/statements.ts; issue 36: a bulk request's answer of
// 1,000 rows through Prisma's update cost 2-4 ms); a replay's read and the sweep of old answers
// are Prisma's own queries.

export interface ClaimRow {
  teamId: string;
  key: string;
  operation: string;
  requestHash: string;
}

/**
 * Inserts the key's claim (status 0, no answer yet) unless the team already has the key; true when
 * this call inserted it. On PostgreSQL a racing insert of the same key waits for the other
 * transaction, then does nothing; on SQLite the write lock orders them.
 */
export async function insertClaim(tx: TxClient, c: ClaimRow): Promise<boolean> {
  const claimed = await portableStatementsOf(tx).all<{ id: string }>(
    `INSERT INTO "idempotency_records" ("id", "team_id", "key", "operation", "request_hash", "status", "response", "created_at")
     VALUES (?, ?, ?, ?, ?, 0, '', ?)
     ON CONFLICT ("team_id", "key") DO NOTHING
     RETURNING "id"`,
    [randomUUID(), c.teamId, c.key, c.operation, c.requestHash, new Date()],
  );
  return claimed.length > 0;
}

/** Stores the answer (status and JSON text) under the team's key claimed in this transaction. */
export async function updateAnswer(tx: TxClient, teamId: string, key: string, status: number, response: string): Promise<void> {
  await portableStatementsOf(tx).run(`UPDATE "idempotency_records" SET "status" = ?, "response" = ? WHERE "team_id" = ? AND "key" = ?`, [
    status,
    response,
    teamId,
    key,
  ]);
}

/** The team's stored record of the key (it exists: the claim found it). */
export function findRecord(tx: TxClient, teamId: string, key: string) {
  return tx.idempotencyRecord.findUniqueOrThrow({ where: { team_id_key: { team_id: teamId, key } } });
}

/** Records made before `before` (a lazy PrismaPromise: it runs when awaited or caught). */
export function deleteRecordsBefore(client: Db['prisma'], before: Date) {
  return client.idempotencyRecord.deleteMany({ where: { created_at: { lt: before } } });
}
