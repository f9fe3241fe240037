import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';

export default (ctx: Context) =>
  group('work-orders', 'Work orders: build kits (ASSEMBLY products) from their components (docs/floor.md)', [
    create(ctx),
    list(ctx),
    get(ctx),
  ]);
