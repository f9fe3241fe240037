import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import accept from './accept.js';
import get from './get.js';
import list from './list.js';
import lock from './lock.js';
import release from './release.js';
import cancel from './cancel.js';
import move from './move.js';
import split from './split.js';

export default (ctx: Context) =>
  group('fulfillment-orders', 'Fulfillment orders: accept, lock, release, cancel, move, split', [
    list(ctx),
    get(ctx),
    accept(ctx),
    lock(ctx),
    release(ctx),
    cancel(ctx),
    move(ctx),
    split(ctx),
  ]);
