import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import del from './delete.js';
import disable from './disable.js';
import get from './get.js';
import list from './list.js';
import roles from './roles.js';
import tier from './tier.js';

export default (ctx: Context) =>
  group('keys', 'API keys of your team (needs MANAGE_API_KEYS)', [
    list(ctx),
    get(ctx),
    create(ctx),
    disable(ctx),
    del(ctx),
    roles(ctx),
    tier(ctx),
  ]);
