import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import get from './get.js';
import importCsv from './import.js';
import list from './list.js';
import update from './update.js';

export default (ctx: Context) =>
  group('products', 'Products and their inventory (ops family; --merchant for merchant keys)', [
    list(ctx),
    get(ctx),
    create(ctx),
    update(ctx),
    importCsv(ctx),
  ]);
