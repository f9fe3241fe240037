import type { Db } from '../db/types.js';

// The domain's clocks, below every area. `dbNow`: the application's clock (AppConfig.clock, which
// buildApp puts on the Db; tests fix it), else the real one — the time rules run at (deliver_by,
// a trace's applied_at) and drafts convert at. `today`: the calendar day for expiry checks of lots.

export const dbNow = (db: Db): number => (db.clock ?? Date.now)();

/** Today's date as YYYY-MM-DD (UTC): lots expiring before it are not picked or packed. */
export const today = () => new Date().toISOString().slice(0, 10);
