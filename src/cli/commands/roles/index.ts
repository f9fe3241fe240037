import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import del from './delete.js';
import get from './get.js';
import list from './list.js';
import update from './update.js';

export default (ctx: Context) =>
  group('roles', 'Custom roles for MEMBER keys (needs MANAGE_API_KEYS)', [list(ctx), get(ctx), create(ctx), update(ctx), del(ctx)]);
