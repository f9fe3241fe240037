import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import del from './delete.js';
import deliveries from './deliveries.js';
import get from './get.js';
import list from './list.js';
import listen from './listen.js';
import trigger from './trigger.js';
import update from './update.js';

export default (ctx: Context) =>
  group('webhooks', 'Webhook endpoints and deliveries (needs MANAGE_WEBHOOKS)', [
    list(ctx),
    get(ctx),
    create(ctx),
    update(ctx),
    del(ctx),
    deliveries(ctx),
    listen(ctx),
    trigger(ctx),
  ]);
