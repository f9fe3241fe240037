import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import convert from './convert.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';

export default (ctx: Context) =>
  group('draft-orders', 'Draft orders (converted into orders)', [list(ctx), get(ctx), create(ctx), convert(ctx)]);
