// The work-orders area's door: what code outside src/domain/work-orders/ may import (test/unit/layers.test.ts).
export { createWorkOrder } from './create.js';
export { getWorkOrder, listWorkOrders } from './view.js';
