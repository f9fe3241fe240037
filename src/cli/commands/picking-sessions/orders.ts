import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { resolveRef } from '../../shared/refs.js';
import { seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** The spec's literal path: {base_url}/ops/v1/picking-sessions/{id}/fulfillment-orders. */
export default function pickingSessionsOrders(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/picking.js')).PickingEntryListSchema),
    name: 'orders',
    description: 'List the fulfillment orders of a picking session',
    args: ['<picking-session-id>'],
    // Its name, id or id prefix, as `fos pick` takes it (this path's parent lists nothing).
    resolveArgs: async (c, [id]) => [await resolveRef(c.client(), 'picking-session', id)],
    path: ([id]) => `/ops/v1/picking-sessions/${seg(id)}/fulfillment-orders`,
    maxLimit: 50,
    query: [
      { key: 'status', type: 'enum', values: ENUMS.picking_status, description: 'PENDING or FULFILLED' },
      {
        key: 'order_by',
        type: 'enum',
        values: ['order_number', 'created_at', 'updated_at'],
        description: 'sort field (default order_number)',
      },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction (default asc)' },
    ],
    columns: ['fulfillment_order_id', 'order_number', 'status', 'tote_name', 'packed_by_user_name', 'packing_completed_at'],
    examples: [
      'fos picking-sessions orders 0193… --status PENDING',
      'fos picking-sessions orders "Wave 3" --json fulfillment_order_id | fos fulfill run --from -',
      'fos picking-sessions orders 0193… --all --format csv',
    ],
  });
}
