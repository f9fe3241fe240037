import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import adjust from './adjust.js';
import { inventoryLocations, inventoryMove } from './bins.js';
import count from './count.js';
import importCsv from './import.js';
import list from './list.js';
import lowStock from './low-stock.js';
import movements from './movements.js';
import transfer from './transfer.js';
import transfers from './transfers/index.js';

export default (ctx: Context) =>
  group('inventory', 'Stock levels, the movement ledger, adjustments and cycle counts', [
    list(ctx),
    lowStock(ctx),
    movements(ctx),
    adjust(ctx),
    count(ctx),
    importCsv(ctx),
    transfer(ctx),
    transfers(ctx),
    inventoryLocations(ctx),
    inventoryMove(ctx),
  ]);
