import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import del from './delete.js';
import list from './list.js';

export default (ctx: Context) => group('carrier-rates', 'Carrier rates for label rate shopping', [list(ctx), create(ctx), del(ctx)]);
