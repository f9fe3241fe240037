import { randomUUID } from 'node:crypto';
import type { TxClient } from '../../db/types.js';

// The idempotency keys' raw statement (issue 24, item 1); the rest is Prisma's own queries.

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
  const claimed = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "idempotency_records" ("id", "team_id", "key", "operation", "request_hash", "status", "response", "created_at")
    VALUES (${randomUUID()}, ${c.teamId}, ${c.key}, ${c.operation}, ${c.requestHash}, 0, '', ${new Date()})
    ON CONFLICT ("team_id", "key") DO NOTHING
    RETURNING "id"`;
  return claimed.length > 0;
}
