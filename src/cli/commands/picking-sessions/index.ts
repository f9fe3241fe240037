import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import add from './add.js';
import create from './create.js';
import get from './get.js';
import list from './list.js';
import orders from './orders.js';
import pickList from './pick-list.js';

export default (ctx: Context) =>
  group('picking-sessions', 'Picking sessions (batch picking of fulfillment orders)', [
    list(ctx),
    get(ctx),
    create(ctx),
    add(ctx),
    orders(ctx),
    pickList(ctx),
  ]);
