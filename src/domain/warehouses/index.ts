// The warehouses area's door: what code outside src/domain/warehouses/ may import (test/unit/layers.test.ts).
export { checkTimeZone, getWarehouse, listWarehouses, updateWarehouse } from './warehouses.js';
export { claimWarehouse, defaultLocationId, ensureDefaultLocation } from './claim.js';
