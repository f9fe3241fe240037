import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import get from './get.js';
import list from './list.js';
import markPaid from './mark-paid.js';
import priority from './priority.js';
import cancel from './cancel.js';
import hold from './hold.js';
import release from './release.js';
import backorders from './backorders.js';
import edit from './edit.js';

export default (ctx: Context) =>
  group('orders', 'Orders', [
    list(ctx),
    get(ctx),
    priority(ctx),
    markPaid(ctx),
    edit(ctx),
    cancel(ctx),
    hold(ctx),
    release(ctx),
    backorders(ctx),
  ]);
