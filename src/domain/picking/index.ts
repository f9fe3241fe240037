// The picking area's door: what code outside src/domain/picking/ may import (test/unit/layers.test.ts).
export { pickList } from './pick-list.js';
export { withPickedLots } from './picked-lines.js';
export { assignFulfillmentOrders, createTote, getSession, listSessionFulfillmentOrders, listSessions, listTotes } from './picking.js';
export { recordScan, undoScan } from './scans.js';
export { createPickingSession } from './waves.js';
