import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { WEBHOOK_FIELDS, webhookPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function webhooksUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/webhooks.js')).WebhookSchema),
    name: 'update',
    description: 'Change a webhook endpoint',
    method: 'PATCH',
    mode: 'update',
    args: ['<webhook-id>'],
    path: ([id]) => webhookPath(id),
    fields: [...WEBHOOK_FIELDS, { key: 'active', type: 'boolean', description: 'deliver events (false pauses the endpoint)' }],
    examples: ['fos webhooks update 0193… --active false'],
  });
}
