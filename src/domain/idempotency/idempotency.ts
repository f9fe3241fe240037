import { createHash } from 'node:crypto';
import type { Db, TxClient } from '../../db/types.js';
import { conflict } from '../errors.js';
import { deleteRecordsBefore, findRecord, insertClaim, updateAnswer } from './store.js';
import { skipAuditRecord } from '../audit/index.js';

// Idempotency keys of writes (issue 23 item 3). A write sent with an Idempotency-Key claims the
// key as the first statement of its transaction and stores its answer before committing, all in
// that one transaction: a repeat of the request (the client's retry after a lost answer, an import
// re-run after a crash) finds the committed answer and returns it instead of writing again; a
// write that failed left no claim behind. Racing repeats wait on the claim's row (PostgreSQL) or
// the write lock (SQLite), then read the answer. Answers are kept RETENTION_MS.

export const RETENTION_MS = 7 * 24 * 3600_000;
const SWEEP_EVERY_MS = 3600_000;

export interface IdempotencyScope {
  teamId: string;
  key: string;
  /** The operationId: the same key on another operation is a conflict, not a replay. */
  operation: string;
  /** The request body the key was first used with. */
  body: unknown;
}

/** The scope of a write sent with a key (undefined without one); `body` names what the key stands for. */
export const keyScope = (teamId: string, key: string | undefined, operation: string, body: unknown): IdempotencyScope | undefined =>
  key ? { teamId, key, operation, body } : undefined;

/** The answer of a repeated request: what the first one answered. */
export interface Replay<T> {
  replayed: true;
  status: number;
  body: T;
}

const hashOf = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

/**
 * Claims the key inside `tx` (call it first in the transaction). Returns undefined when the key is
 * new (go on and write, then saveAnswer), or the stored answer of the request that used it.
 */
export async function claimKey<T>(tx: TxClient, scope: IdempotencyScope): Promise<Replay<T> | undefined> {
  const hash = hashOf(scope.body);
  const claimed = await insertClaim(tx, { teamId: scope.teamId, key: scope.key, operation: scope.operation, requestHash: hash });
  if (claimed) return undefined;
  const prior = await findRecord(tx, scope.teamId, scope.key);
  if (prior.operation !== scope.operation || prior.request_hash !== hash) {
    throw conflict(
      `Idempotency key "${scope.key}" was already used with a different request (${prior.operation}); use a new key for a new request.`,
      { errors: [{ path: 'headers.idempotency-key', message: 'was already used with a different request' }] },
    );
  }
  return { replayed: true, status: prior.status, body: JSON.parse(prior.response) as T };
}

/** Stores the answer under the key claimed in this transaction. */
export async function saveAnswer(tx: TxClient, scope: IdempotencyScope, status: number, body: unknown): Promise<void> {
  await updateAnswer(tx, scope.teamId, scope.key, status, JSON.stringify(body));
}

let lastSweep = 0;

/** Forgets answers older than RETENTION_MS, at most once an hour per process, off the request's transaction. */
export function sweepOldAnswers(db: Db, now = Date.now()): void {
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  void deleteRecordsBefore(db.prisma, new Date(now - RETENTION_MS)).catch(() => undefined);
}

export interface Answer<T> {
  status: number;
  body: T;
  /** True when this is the stored answer of an earlier request with the same key. */
  replayed: boolean;
}

/**
 * Runs `write` inside `tx` once per key: with no scope (no key sent) it just runs; with one, the
 * key is claimed first and the answer stored, or the earlier answer is returned without writing.
 */
export async function once<T>(
  tx: TxClient,
  scope: IdempotencyScope | undefined,
  status: number,
  write: () => Promise<T>,
): Promise<Answer<T>> {
  if (!scope) return { status, body: await write(), replayed: false };
  const prior = await claimKey<T>(tx, scope);
  if (prior) {
    skipAuditRecord(); // the first request's record stands for it (docs/audit.md)
    return { status: prior.status, body: prior.body, replayed: true };
  }
  const body = await write();
  await saveAnswer(tx, scope, status, body);
  return { status, body, replayed: false };
}
