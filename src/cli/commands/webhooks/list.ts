import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { webhookPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function webhooksList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/webhooks.js')).WebhookListSchema),
    description: 'List webhook endpoints',
    path: () => webhookPath(),
    columns: ['id', 'url', 'events', 'active', 'test', 'created_at'],
    examples: ['fos webhooks list'],
  });
}
