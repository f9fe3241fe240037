import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { webhookPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function webhooksDeliveries(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/webhooks.js')).DeliverySchema),
    name: 'deliveries',
    description: 'List delivery attempts of a webhook endpoint',
    args: ['<webhook-id>'],
    path: ([id]) => webhookPath(id, 'deliveries'),
    query: [{ key: 'status', type: 'enum', values: ENUMS.delivery_status, description: 'PENDING, DELIVERED or FAILED' }],
    columns: ['id', 'event_kind', 'status', 'attempts', 'response_status', 'next_attempt_at', 'created_at'],
    examples: ['fos webhooks deliveries 0193…', 'fos webhooks deliveries 0193… --status FAILED'],
  });
}
