// The fulfillment-order counts live in the store (store/counts.ts: their SQL differs per database).
export { countFulfillmentOrders, foldFulfillmentOrderCounts, type CountFilter } from './store/counts.js';
