import { clockOf } from '../db/tx.js';
import type { Db, TxClient } from '../db/types.js';

// The domain's clocks, below every area. `dbNow`: the application's clock (AppConfig.clock, which
// buildApp puts on the Db; tests fix it), else the real one — the time rules run at (deliver_by,
// a trace's applied_at) and drafts convert at; `txNow`: the same clock inside a transaction of
// ours, for code handed only a `tx` (a charge billed in a fulfill, a receipt, a work order).
// `today`: the calendar day for expiry checks of lots.

export const dbNow = (db: Db): number => (db.clock ?? Date.now)();

/** The application's clock as a Date inside the transaction `tx` (src/db/tx.ts clockOf). */
export const txNow = (tx: TxClient): Date => new Date(clockOf(tx)());

/** created_at and updated_at of a row made in `tx`, by the app's clock (a Prisma create's default is the real one). */
export function txStamps(tx: TxClient): { created_at: Date; updated_at: Date } {
  const at = txNow(tx);
  return { created_at: at, updated_at: at };
}

/** Today's date as YYYY-MM-DD (UTC): lots expiring before it are not picked or packed. */
export const today = () => new Date().toISOString().slice(0, 10);
