// The purchase-orders area's door: what code outside src/domain/purchase-orders/ may import (test/unit/layers.test.ts).
export { createMerchantPurchaseOrder, createPurchaseOrder } from './create.js';
export { cancelPurchaseOrder, closePurchaseOrder } from './lifecycle.js';
export { getPurchaseOrder, listPurchaseOrders } from './query.js';
export { receivePurchaseOrder } from './receive.js';
