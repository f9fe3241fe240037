// The billing area's door: what code outside src/domain/billing/ may import (test/unit/layers.test.ts).
export { listStorageSnapshots } from './storage-list.js';
export { runDueStorage, runStorageForDate, storagePricedAt, type DayResult } from './storage-runs.js';
