import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import connect from './connect.js';
import {
  shopsCheck,
  shopsDeliveries,
  shopsDisconnect,
  shopsFulfillmentService,
  shopsGet,
  shopsList,
  shopsReplay,
  shopsSync,
  shopsUpdate,
} from './verbs.js';

export default (ctx: Context) =>
  group('shops', 'Sales-channel shops: connect a shop of a platform, sync, deliveries (needs MANAGE_SHOPS)', [
    shopsList(ctx),
    shopsGet(ctx),
    connect(ctx),
    shopsUpdate(ctx),
    shopsSync(ctx),
    shopsCheck(ctx),
    shopsFulfillmentService(ctx),
    shopsDeliveries(ctx),
    shopsReplay(ctx),
    shopsDisconnect(ctx),
  ]);
