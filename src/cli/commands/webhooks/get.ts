import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand } from '../../shared/resource.js';
import { webhookPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function webhooksGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/webhooks.js')).WebhookSchema),
    description: 'Show one webhook endpoint',
    args: ['<webhook-id>'],
    path: ([id]) => webhookPath(id),
    examples: ['fos webhooks get 0193…'],
  });
}
