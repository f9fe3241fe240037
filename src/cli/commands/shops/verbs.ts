import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { ENUMS } from '../../enums.js';
import { getCommand, writeCommand } from '../../shared/resource.js';
import { shopPath } from './fields.js';
import { response } from '../../output/shape.js';
import { CliError, ExitCode } from '../../errors.js';

export const shopsList = (ctx: Context): Command =>
  listCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ShopSchema),
    description: 'List shops and their connection health',
    path: () => shopPath(),
    query: [
      {
        key: 'shop_type',
        type: 'enum',
        values: ENUMS.shop_type,
        description: 'one platform',
      },
    ],
    columns: ['id', 'name', 'shop_type', 'connected', 'active', 'health.last_sync_at', 'health.last_error', 'created_at'],
    examples: ['fos shops list', 'fos shops list --shop-type SHOPIFY'],
  });

export const shopsGet = (ctx: Context): Command =>
  getCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ShopSchema),
    description: 'Show a shop: connection, settings and health (last sync, last error, webhooks received)',
    args: ['<shop-id>'],
    path: ([id]) => shopPath(id),
    examples: ['fos shops get 0193…'],
  });

export const shopsSync = (ctx: Context): Command =>
  writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).SyncSchema),
    name: 'sync',
    description: 'Pull listings and orders from the platform now',
    method: 'POST',
    mode: 'action',
    args: ['<shop-id>'],
    path: ([id]) => shopPath(id, 'sync'),
    fields: [{ key: 'since', type: 'date', arg: 'date-time', description: 'orders updated since then (default: since the last sync)' }],
    transform: (body) => body,
    examples: ['fos shops sync 0193…', 'fos shops sync 0193… --since 2026-11-01T00:00:00Z'],
  });

export const shopsCheck = (ctx: Context): Command =>
  writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).CheckSchema),
    name: 'check',
    description: 'Check the connection with one real platform call',
    method: 'POST',
    mode: 'action',
    args: ['<shop-id>'],
    path: ([id]) => shopPath(id, 'check'),
    // The answer is printed either way; a refused check also exits 1, so a script sees it.
    after: async (_c, record) => {
      const r = record as { ok?: boolean; error?: string | null };
      if (r.ok === false) throw new CliError(`the check failed: ${r.error ?? 'no reason given'}`, ExitCode.ERROR);
    },
    examples: ['fos shops check 0193…', 'fos shops test 0193…   # exit 1 when the platform refuses'],
  }).alias('test');

export const shopsFulfillmentService = (ctx: Context): Command =>
  writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ShopSchema),
    name: 'fulfillment-service',
    description: "Register fos as the Shopify shop's fulfillment service (a location of its own; requests answered by fos)",
    method: 'POST',
    mode: 'action',
    args: ['<shop-id>'],
    path: ([id]) => shopPath(id, 'fulfillment-service'),
    examples: ['fos shops fulfillment-service 0193…'],
  });

export const shopsUpdate = (ctx: Context): Command =>
  writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ShopSchema),
    name: 'update',
    description: 'Rename, enable/disable, or change settings or credentials (checked before stored)',
    method: 'PATCH',
    mode: 'update',
    args: ['<shop-id>'],
    path: ([id]) => shopPath(id),
    fields: [
      { key: 'name', description: 'new name' },
      { key: 'active', type: 'boolean', description: 'false disables the connection' },
      { key: 'settings.notify_customer', flag: '--notify-customer', type: 'boolean', description: 'notify the customer on fulfillment' },
      { key: 'settings.location_id', flag: '--location', arg: 'gid', description: 'Shopify location for stock' },
      {
        key: 'settings.ship_on_authorized',
        flag: '--ship-on-authorized',
        type: 'boolean',
        description: 'ship orders whose payment is only authorized (default false: AWAITING_PAYMENT hold)',
      },
    ],
    examples: [
      'fos shops update 0193… --active false',
      'fos shops update 0193… --ship-on-authorized true',
      'fos shops update 0193… --data \'{"connection":{"access_token":"shpat_…"}}\'',
    ],
  });

export const shopsDisconnect = (ctx: Context): Command =>
  writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).DeletedShopSchema),
    name: 'disconnect',
    description: 'Forget the connection and its credentials (the shop stays as a label when orders name it)',
    method: 'DELETE',
    mode: 'action',
    args: ['<shop-id>'],
    path: ([id]) => shopPath(id),
    confirm: (_, what) => `Disconnect shop ${what}? Its credentials are deleted; orders stop arriving.`,
    lookup: { path: ([id]) => shopPath(id), label: (s) => s.name },
    examples: ['fos shops disconnect 0193… --yes'],
  });

export const shopsDeliveries = (ctx: Context): Command =>
  listCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ChannelDeliverySchema),
    name: 'deliveries',
    description: 'Platform webhooks received for a shop, newest first',
    args: ['<shop-id>'],
    path: ([id]) => shopPath(id, 'deliveries'),
    query: [{ key: 'status', type: 'enum', values: ENUMS.channel_delivery_status, description: 'one outcome' }],
    columns: ['id', 'topic', 'remote_id', 'status', 'error', 'order_id', 'attempts', 'created_at'],
    examples: ['fos shops deliveries 0193…', 'fos shops deliveries 0193… --status FAILED'],
  });

export const shopsReplay = (ctx: Context): Command =>
  writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ChannelDeliverySchema),
    name: 'replay',
    description: 'Process a stored webhook delivery again (idempotent)',
    method: 'POST',
    mode: 'action',
    args: ['<shop-id>', '<delivery-id>'],
    path: ([id, delivery]) => shopPath(id, `deliveries/${encodeURIComponent(delivery!)}/replay`),
    examples: ['fos shops replay 0193… 0194…'],
  });
