import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import cancel from './cancel.js';
import close from './close.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';
import receive from './receive.js';

export default (ctx: Context) =>
  group('purchase-orders', 'Purchase orders: stock on its way in, received against the order', [
    list(ctx),
    get(ctx),
    create(ctx),
    receive(ctx),
    close(ctx),
    cancel(ctx),
  ]);
