import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';
import update from './update.js';

export default (ctx: Context) => group('vendors', 'Vendors of a merchant team', [list(ctx), get(ctx), create(ctx), update(ctx)]);
