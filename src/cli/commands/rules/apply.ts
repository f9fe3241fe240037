import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printRecord } from '../../output/print.js';
import { declareOutput, response } from '../../output/shape.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { orderIdOf } from '../../shared/order-ref.js';

// `fos rules apply --order <ref>` re-runs the rules on one open order and prints it (with its
// automation_trace); `--all-open` on every open order of the team and prints the counts.

export default function apply(ctx: Context): Command {
  const cmd = new Command('apply')
    .description("Re-apply the rules: to one open order (--order) or to every open order (--all-open); a person's choices are kept")
    .option('--order <ref>', 'an order number or id')
    .option('--all-open', 'every open order of the team');
  cmd.action(async (...args: unknown[]) => {
    const o = commandOf(args).opts() as { order?: string; allOpen?: boolean };
    if (!o.order === !o.allOpen) throw new UsageError('give --order <ref> or --all-open, one of them');
    const client = ctx.client();
    const res = o.order
      ? await client.post(`/ops/orders/${encodeURIComponent(await orderIdOf(client, o.order))}/apply-rules`)
      : await client.post('/ops/automation-rules/apply');
    await printRecord(ctx, res);
  });
  declareOutput(
    cmd,
    response(async (opts) =>
      opts.allOpen
        ? (await import('../../../contract/automation-rules.js')).ApplyAllResponse
        : (await import('../../../contract/orders.js')).OrderSchema,
    ),
  );
  return withExamples(cmd, ['fos rules apply --order 1001', 'fos rules apply --all-open']);
}
