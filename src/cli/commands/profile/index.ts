import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import del from './delete.js';
import list from './list.js';
import use from './use.js';

export default (ctx: Context) => group('profile', 'Saved profiles (base URL + API key)', [list(ctx), use(ctx), del(ctx)]);
