import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function pickingSessionsAdd(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/picking.js')).AssignResponse),
    name: 'add',
    description: 'Add fulfillment orders to a picking session (optionally into a tote)',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<picking-session-id>', '<fulfillment-order-ids...>'],
    path: ([id]) => `/ops/picking-sessions/${seg(id)}/fulfillment-orders`,
    fields: [{ key: 'tote_id', flag: '--tote', arg: 'id', description: 'tote the orders are picked into' }],
    transform: (body, _opts, args) => ({ fulfillment_order_ids: args[1] as unknown as string[], ...body }),
    examples: ['fos picking-sessions add 0193…session 0193…fo1 0193…fo2', 'fos picking-sessions add 0193…session 0193…fo1 --tote 0193…'],
  });
}
