import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand } from '../../shared/resource.js';
import { webhookPath } from './fields.js';

export default function webhooksGet(ctx: Context): Command {
  return getCommand(ctx, {
    description: 'Show one webhook endpoint',
    args: ['<webhook-id>'],
    path: ([id]) => webhookPath(id),
    examples: ['fos webhooks get 0193…'],
  });
}
