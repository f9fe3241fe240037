import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import list from './list.js';

export default (ctx: Context) =>
  group('replenishments', 'Replenishment tasks: pickable bins to refill from overstock (docs/floor.md)', [list(ctx)]);
