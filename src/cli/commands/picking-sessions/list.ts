import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function pickingSessionsList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/picking.js')).PickingSessionSchema),
    description: 'List picking sessions (newest first)',
    path: () => '/ops/picking-sessions',
    query: [{ key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction' }],
    columns: ['id', 'name', 'fulfillment_order_count', 'created_at'],
    examples: ['fos picking-sessions list', 'fos picking-sessions list --json id,name'],
  });
}
