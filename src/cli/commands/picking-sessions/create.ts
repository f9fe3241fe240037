import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function pickingSessionsCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/picking.js')).PickingSessionSchema),
    name: 'create',
    description: 'Start a picking session: empty, from fulfillment orders, or a wave (priority first, then oldest; each gets a tote)',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['[fulfillment-order-ids...]'],
    path: () => '/ops/picking-sessions',
    fields: [
      { key: 'name', description: 'session name (default: "Wave"/"Session" and the time)' },
      {
        key: 'wave.warehouse_id',
        flag: '--wave',
        arg: 'warehouse',
        description: 'take a wave of open accepted orders of this warehouse',
        ref: 'warehouse',
      },
      {
        key: 'wave.max_orders',
        flag: '--max-orders',
        type: 'int',
        min: 1,
        max: 200,
        description: 'wave: at most this many orders (default 20)',
      },
      { key: 'wave.carrier_id', flag: '--carrier', arg: 'id', description: 'wave: only orders of this carrier' },
      { key: 'wave.shipping_method', flag: '--shipping-method', arg: 'method', description: 'wave: only orders with this shipping method' },
      { key: 'wave.single_item_only', flag: '--single-item', type: 'boolean', description: 'wave: only orders with a single unit' },
    ],
    transform: (body, _opts, args) => {
      const ids = (args[0] as unknown as string[] | undefined) ?? [];
      const wave = body.wave as Record<string, unknown> | undefined;
      if (wave) wave.max_orders ??= 20;
      return { ...body, ...(ids.length ? { fulfillment_order_ids: ids } : {}) };
    },
    examples: [
      'fos picking-sessions create --name "Morning wave" 0193…fo1 0193…fo2',
      'fos picking-sessions create --wave Main --max-orders 30',
      'fos picking-sessions create --wave Main --max-orders 50 --single-item true --shipping-method Express',
    ],
  });
}
