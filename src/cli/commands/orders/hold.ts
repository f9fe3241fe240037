import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { enumArgument } from '../../shared/flags.js';
import { orderArg, seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** Puts an order on hold: its fulfillment orders cannot be locked, packed, labelled or fulfilled. */
export default function ordersHold(ctx: Context): Command {
  const reason = enumArgument('<reason>', 'why', 'hold_reason', ENUMS.hold_reason);
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/order-exceptions.js')).HoldSchema),
    name: 'hold',
    description: 'Put an order on hold (no lock, pack, label or fulfill until released)',
    method: 'POST',
    mode: 'action',
    args: ['<order>', reason],
    resolveArgs: orderArg,
    path: ([id]) => `/ops/orders/${seg(id)}/holds`,
    fields: [{ key: 'reason_notes', flag: '--notes', arg: 'text', description: 'what the hold is waiting for' }],
    transform: (body, _opts, [, why]) => ({ reason: why, ...body }),
    examples: [
      'fos orders hold 1003 FRAUD_REVIEW --notes "billing and shipping countries differ"',
      'fos orders hold 0193… manual --json id',
    ],
  });
}
