import { CliError, ExitCode } from '../../errors.js';
import type { FulfillmentOrder, Package } from './api.js';
import { describeLabel, labelNeeded, type RunOptions } from './options.js';
import { describeLines, planLines, type Items, type PlanLine } from './plan.js';

// What `fos fulfill run` does with a fulfillment order that a station already worked on (issue 34):
// the open packages it has are taken over (labelled if not, then fulfilled), only what no package
// holds is packed, and units recorded short (a short pick or pack) are refused unless --partial
// splits them off first. The same plan drives --dry-run and the real run (steps), so the dry run
// says exactly what the run will do.

/** Lines with units recorded short. */
export const shortLines = (fo: FulfillmentOrder) => fo.line_items.filter((l) => (l.short_quantity ?? 0) > 0);

/** The refusal of a fulfillment order with a shortfall (exit 5): the SKU, the order, the shortfall and the way out. */
export function shortfallError(fo: FulfillmentOrder): CliError {
  const found = (l: FulfillmentOrder['line_items'][number]) => l.remaining_quantity - (l.short_quantity ?? 0);
  const what = shortLines(fo)
    .map((l) => `${l.sku ?? l.name} short ${l.short_quantity} (found ${found(l)})`)
    .join(', ');
  // Nothing found at all: --partial would have nothing to ship (the split refuses it too).
  const way = fo.line_items.some((l) => found(l) > 0)
    ? '--partial ships what was found and splits the rest off to a new fulfillment order'
    : `nothing was found to ship: cancel it (fos fulfillment-orders cancel ${fo.id}) or count the bins again`;
  return new CliError(`order ${fo.order_number}: ${what}; short units never ship: ${way}`, ExitCode.CONFLICT);
}

/** The fulfillment order as a new package sees it: what open packages hold is no longer remaining. */
export function leftAfter(fo: FulfillmentOrder, pkgs: Package[]): FulfillmentOrder {
  const held = new Map<string, number>();
  for (const p of pkgs)
    for (const l of p.package_line_items) {
      const id = l.core_fulfillment_order_line_item_id;
      if (id) held.set(id, (held.get(id) ?? 0) + l.quantity);
    }
  const line_items = fo.line_items.map((l) => ({ ...l, remaining_quantity: Math.max(0, l.remaining_quantity - (held.get(l.id) ?? 0)) }));
  return { ...fo, line_items, remaining_quantity: line_items.reduce((s, l) => s + l.remaining_quantity, 0) };
}

export interface Plan {
  /** Open packages taken over, in creation order. */
  takeOver: Package[];
  /** The lines of the new package (empty: none is made). */
  lines: PlanLine[];
  /** What the run does, in order (the dry run's output and the real run's `steps`). */
  steps: string[];
}

const isLabelled = (p: Package) => Boolean(p.shipping_label || p.shipment_status);
const pkgLines = (p: Package) => p.package_line_items.map((l) => `${l.sku ?? l.name} ×${l.quantity}`).join(', ');

/** The plan for one fulfillment order: `fo` is as read after any split-off of short units. */
export function planOf(fo: FulfillmentOrder, pkgs: Package[], items: Items | undefined, opts: RunOptions, split: boolean): Plan {
  const short = shortLines(fo);
  const steps: string[] = [];
  if (fo.status === 'PENDING') steps.push('accept (PENDING)');
  if (short.length) steps.push(`split off the short units: ${short.map((l) => `${l.sku ?? l.name} ×${l.short_quantity}`).join(', ')}`);
  steps.push('lock');
  // After a split the short units are gone from the order: plan from what stays.
  const base = split
    ? { ...fo, line_items: fo.line_items.map((l) => ({ ...l, remaining_quantity: l.remaining_quantity - (l.short_quantity ?? 0) })) }
    : fo;
  const lines = planLines(leftAfter(base, pkgs), pkgs.length && !items ? undefined : items);
  if (opts.label.kind === 'none') {
    const unlabelled = pkgs.filter((p) => !isLabelled(p));
    if (lines.length || unlabelled.length)
      throw labelNeeded(
        `order ${fo.order_number}: ${unlabelled.length ? `package ${unlabelled[0].id} has no label` : 'a new package will need a label'}`,
      );
  }
  for (const p of pkgs) {
    steps.push(`take over package ${p.id} (${pkgLines(p)})`);
    steps.push(isLabelled(p) ? `already labelled` : `label: ${describeLabel(opts.label)}`);
    steps.push('fulfill');
  }
  if (lines.length) steps.push(`pack ${describeLines(lines)}`, `label: ${describeLabel(opts.label)}`, 'fulfill');
  return { takeOver: pkgs, lines, steps };
}
