import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** `fos webhooks trigger order.created`: a sample event through the outbox (endpoints and listeners get it). */
export default function webhooksTrigger(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/webhooks.js')).StreamEventSchema),
    name: 'trigger',
    description: "Send a sample event of a type to the team's endpoints and listeners (data.sample is true)",
    method: 'POST',
    mode: 'action',
    args: ['<event-type>'],
    path: () => '/webhooks/events',
    argsToBody: ([type]) => ({ type }),
    examples: ['fos webhooks trigger order.created', 'fos webhooks trigger package.fulfilled --json id'],
  });
}
