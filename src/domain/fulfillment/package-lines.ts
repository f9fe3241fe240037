import { createHash } from 'node:crypto';
import type { TxClient } from '../../db/types.js';
import { conflict, invalid } from '../errors.js';
import { refusalNames } from '../names/index.js';
import { NO_PRODUCT, type PackingLine, type PackingProduct } from './packing.js';

// Package line items are validated the same way at create and at PATCH (spec 4.7 rule 2):
// each line names a line item of the package's fulfillment order (by
// core_fulfillment_order_line_item_id, product_id and/or sku), and per fulfillment-order line
// the quantity packed here plus what other open (PENDING) packages of the same fulfillment
// order hold never exceeds what remains unfulfilled. Callers hold the fulfillment order's row
// lock (their transaction's first UPDATE) and read the lines after it (packing.ts), so racing
// creates cannot both pass this check.

export interface LineInput {
  id?: string;
  sku?: string | null;
  product_id?: string | null;
  core_fulfillment_order_line_item_id?: string | null;
  quantity: number;
  lot_code?: string | null;
  expiration_date?: string | null;
}

export interface ResolvedLine {
  input: LineInput;
  foLine: PackingLine;
  /** The line as written: the fulfillment-order line's, the request's, and its product's fields. */
  data: Omit<PackingProduct, 'image_url'> & {
    product_id: string | null;
    core_fulfillment_order_line_item_id: string;
    sku: string | null;
    name: string;
    image_url: string | null;
    quantity: number;
    lot_code: string | null;
    expiration_date: Date | null;
    /** The bin its units were picked from (picking/picked-lines.ts). */
    location_id?: string | null;
  };
}

/** The fulfillment-order line a package line names, or why none is: refused by resolveLines with names. */
function matchLine(foLines: PackingLine[], line: LineInput, i: number): PackingLine | 'none' | 'several' {
  if (!line.core_fulfillment_order_line_item_id && !line.product_id && !line.sku) {
    throw invalid(`body.package_line_items.${i}`, 'needs a sku, a product_id or a core_fulfillment_order_line_item_id');
  }
  const hits = foLines.filter(
    (l) =>
      (!line.core_fulfillment_order_line_item_id || l.id === line.core_fulfillment_order_line_item_id) &&
      (!line.product_id || l.product_id === line.product_id) &&
      (!line.sku || l.sku === line.sku),
  );
  if (hits.length === 0) return 'none';
  return hits.length > 1 ? 'several' : hits[0];
}

/** The refusal of a line that names no line item (or several), naming the order and the product's SKU. */
async function unmatched(client: TxClient, foId: string, line: LineInput, i: number, why: 'none' | 'several') {
  const n = await refusalNames(client, { fulfillmentOrders: [foId], products: [line.product_id] });
  const fo = n.fulfillmentOrder(foId);
  const path = `body.package_line_items.${i}`;
  if (why === 'several') return invalid(path, `matches several line items of ${fo}; give core_fulfillment_order_line_item_id`);
  const what = [
    line.sku && `sku ${line.sku}`,
    line.product_id && `product ${n.product(line.product_id)}`,
    line.core_fulfillment_order_line_item_id && `line item ${line.core_fulfillment_order_line_item_id}`,
  ]
    .filter(Boolean)
    .join(', ');
  return invalid(path, `does not match a line item of ${fo} (${what})`);
}

/** Matches and checks the lines against the fulfillment order's (from packingLines), and fills in what they copy. */
export async function resolveLines(
  client: TxClient,
  fo: { id: string; line_items: PackingLine[] },
  lines: LineInput[],
): Promise<ResolvedLine[]> {
  const found = lines.map((line, i) => matchLine(fo.line_items, line, i));
  const bad = found.findIndex((m) => typeof m === 'string');
  if (bad >= 0) throw await unmatched(client, fo.id, lines[bad], bad, found[bad] as 'none' | 'several');
  const matched = found as PackingLine[];
  const requested = new Map<string, number>();
  const errors: Array<{ path: string; message: string }> = [];
  lines.forEach((line, i) => {
    const fl = matched[i];
    const total = (requested.get(fl.id) ?? 0) + line.quantity;
    requested.set(fl.id, total);
    const other = fl.in_other_packages;
    // Units recorded short are not there: they are never packed (docs/fulfillment.md "Short units never ship").
    if (total + other + fl.short_quantity > fl.remaining_quantity) {
      const left = Math.max(0, fl.remaining_quantity - other - fl.short_quantity);
      const short = fl.short_quantity ? `, ${fl.short_quantity} recorded short` : '';
      errors.push({
        path: `body.package_line_items.${i}.quantity`,
        message: `${fl.sku ?? fl.name}: ${left} can still be packed (${fl.remaining_quantity} unfulfilled, ${other} in other open packages${short}), ${total} requested`,
      });
    }
  });
  if (errors.length) {
    throw conflict(`Package quantities exceed what remains to fulfill: ${errors.map((e) => e.message).join('; ')}.`, { errors });
  }

  return lines.map((line, i) => {
    const fl = matched[i];
    const { image_url: productImage, ...copied } = fl.product ?? NO_PRODUCT;
    return {
      input: line,
      foLine: fl,
      data: {
        product_id: fl.product_id,
        core_fulfillment_order_line_item_id: fl.id,
        sku: fl.sku,
        name: fl.name,
        image_url: fl.image_url ?? productImage,
        quantity: line.quantity,
        lot_code: line.lot_code ?? null,
        expiration_date: line.expiration_date ? new Date(line.expiration_date) : null,
        ...copied,
      },
    };
  });
}

/** Package totals derived from its lines. */
export function lineTotals(
  lines: Array<{ core_fulfillment_order_line_item_id: string | null; quantity: number; customs_value: number | null }>,
) {
  const perLine = new Map<string, number>();
  for (const l of lines) {
    const k = l.core_fulfillment_order_line_item_id ?? '';
    perLine.set(k, (perLine.get(k) ?? 0) + l.quantity);
  }
  const canonical = [...perLine.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, q]) => `${k}:${q}`)
    .join('|');
  return {
    total_item_quantity: lines.reduce((s, l) => s + l.quantity, 0),
    unique_line_item_count: perLine.size,
    total_customs_value: Math.round(lines.reduce((s, l) => s + (l.customs_value ?? 0) * l.quantity, 0) * 100) / 100,
    line_item_hash: createHash('sha256').update(canonical).digest('hex').slice(0, 32),
  };
}
