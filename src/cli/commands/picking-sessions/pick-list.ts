import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function pickingSessionsPickList(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/locations.js')).PickListSchema),
    name: 'pick-list',
    description: 'Show the walk for a session: bins in pick order, lot, quantity and the totes that get them',
    args: ['<picking-session-id>'],
    path: ([id]) => `/ops/picking-sessions/${seg(id)}/pick-list`,
    examples: [
      'fos picking-sessions pick-list 0193…',
      "fos picking-sessions pick-list 0193… --jq '.rows[] | [.location_name, .sku, .quantity]'",
    ],
  });
}
