import { UsageError } from '../../errors.js';

/** `--line <fulfillment-order-line-id>=<quantity>` flags as the move/split body's `lines`. */
export function lineQuantities(flags: string[] | undefined): {
  lines?: Array<{ fulfillment_order_line_item_id: string; quantity: number }>;
} {
  if (!flags?.length) return {};
  return {
    lines: flags.map((f) => {
      const m = /^([^=\s]+)=(\d+)$/.exec(f.trim());
      if (!m || Number(m[2]) < 1)
        throw new UsageError(`--line ${f}: expected <fulfillment-order-line-id>=<quantity> (a whole number from 1)`);
      return { fulfillment_order_line_item_id: m[1], quantity: Number(m[2]) };
    }),
  };
}
