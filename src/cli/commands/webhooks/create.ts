import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { WEBHOOK_FIELDS, webhookPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function webhooksCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/webhooks.js')).CreatedWebhookSchema),
    name: 'create',
    description: 'Create a webhook endpoint (its signing secret is printed once)',
    method: 'POST',
    mode: 'create',
    path: () => webhookPath(),
    fields: WEBHOOK_FIELDS,
    notice: 'the signing secret is shown only once: store it now',
    examples: ['fos webhooks create --url https://hooks.example/fos --event package.fulfilled,order.created'],
  });
}
