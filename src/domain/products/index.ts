// The products area's door: what code outside src/domain/products/ may import (test/unit/layers.test.ts).
export { bulkUpsertProducts } from './bulk.js';
export { duplicateSkuGroups, mergeDuplicateSkus } from './dedupe.js';
export { configOf } from './fields.js';
export * as merchant from './merchant.js';
export * as products from './products.js';
export { createOpsProduct, listOpsProducts } from './products.js';
export { reachableTeamIds, soleFulfillerOf, type Caller, type Client } from './reach.js';
