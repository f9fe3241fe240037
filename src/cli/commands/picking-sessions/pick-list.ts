import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

type Share = { tote_name: string | null; order_number: string; quantity: number; remaining: number };

/**
 * The walk as a lead reads it on a terminal: one line per bin, product, lot and tote, in walk
 * order (the rows come in pick_sequence order; a row's totes in the order the list gives them).
 */
export const walkLines = (rows: Record<string, unknown>[]) =>
  rows.flatMap((r) => {
    const totes = (r.totes as Share[]).length ? (r.totes as Share[]) : [null];
    return totes.map((t) => ({
      location: r.location_name,
      sku: r.sku ?? r.product_name,
      quantity: t ? t.quantity : r.quantity,
      left: t ? t.remaining : r.remaining,
      lot: r.lot_code,
      tote: t?.tote_name ?? '',
      order: t ? `#${t.order_number.replace(/^#/, '')}` : '',
    }));
  });

export default function pickingSessionsPickList(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/locations.js')).PickListSchema),
    name: 'pick-list',
    description: 'Show the walk for a session: bins in pick order, lot, quantity and the totes that get them',
    args: ['<picking-session-id>'],
    path: ([id]) => `/ops/picking-sessions/${seg(id)}/pick-list`,
    views: { rows: { columns: ['location', 'sku', 'quantity', 'left', 'lot', 'tote', 'order'], rows: walkLines } },
    examples: [
      'fos picking-sessions pick-list 0193…',
      "fos picking-sessions pick-list 0193… --jq '.rows[] | [.location_name, .sku, .quantity]'",
    ],
  });
}
