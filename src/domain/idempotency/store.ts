import { randomUUID } from 'node:crypto';
import { portableStatementsOf } from '../../db/statements.js';
import type { TxClient } from '../../db/types.js';

// The idempotency keys' statements (issue 24, item 1): the claim and the answer, on the
// transaction's prepared statements (src/db/statements.ts; issue 36: a bulk request's answer of
// 1,000 rows through Prisma's update cost 2-4 ms); a replay's read is Prisma's own query.

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
