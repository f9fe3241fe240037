import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';
import { familyPath, withKeyFamily } from '../../shared/family.js';

export default function chargesGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/charges.js')).ChargeSchema),
    description: 'Show one charge with its pricing trace',
    args: ['<charge-id>'],
    path: ([id], opts) => `${familyPath(opts, 'charges')}/${seg(id)}`,
    configure: (cmd) => withKeyFamily(ctx, cmd),
    examples: ['fos charges get 0193…', 'fos charges get 0193… --json calculated_amount,pricing_trace.decision'],
  });
}
