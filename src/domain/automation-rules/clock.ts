import type { Db } from '../../db/types.js';

// The time rules run at (deliver_by conditions, the trace's applied_at): the application's clock
// (AppConfig.clock, which buildApp puts on the Db; tests fix it), else the real one.

export const nowOf = (db: Db): number => (db.clock ?? Date.now)();
