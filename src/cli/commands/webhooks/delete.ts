import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { webhookPath } from './fields.js';
import { none } from '../../output/shape.js';

export default function webhooksDelete(ctx: Context): Command {
  return writeCommand(ctx, {
    output: none('answers 204: prints no record'),
    name: 'delete',
    description: 'Delete a webhook endpoint',
    method: 'DELETE',
    mode: 'action',
    args: ['<webhook-id>'],
    path: ([id]) => webhookPath(id),
    confirm: (_, what) => `Delete webhook ${what}? Its pending deliveries are dropped.`,
    lookup: { path: ([id]) => webhookPath(id), label: (w) => w.url },
    done: ([id]) => `deleted webhook ${id}`,
    examples: ['fos webhooks delete 0193… --yes'],
  });
}
