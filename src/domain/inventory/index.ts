// The inventory area's door: what code outside src/domain/inventory/ may import (test/unit/layers.test.ts).
export { adjustInventory } from './adjust.js';
export { listBinStock } from './bin-stock.js';
export { pickPlacements, type Placement } from './bins.js';
export { applyToLevel, applyToProductLevels, levelFor, stockFreed, type LevelRef, type MovementInfo } from './ledger.js';
export { applyToLevels, levelsFor, lockedLevelsFor, type LevelChange } from './ledger-bulk.js';
export { listLevels } from './levels.js';
export { listMovements } from './movements.js';
export { moveStock } from './moves.js';
export { resolveProducts, resolveProductsRead, uniqueProducts, warehouseNames, type ProductRef, type ResolvedProduct } from './products.js';
export { notCommitted } from './refusals.js';
export { listReplenishments } from './replenish.js';
export { cancelTransfer, createTransfer, getTransfer, listTransfers, receiveTransfer } from './transfers.js';
