import { createHash } from 'node:crypto';
import { conflict, invalid } from '../errors.js';
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

function matchLine(foId: string, foLines: PackingLine[], line: LineInput, i: number): PackingLine {
  const path = `package_line_items.${i}`; // reported as body.<path>
  if (!line.core_fulfillment_order_line_item_id && !line.product_id && !line.sku) {
    throw invalid(`body.${path}`, 'needs a sku, a product_id or a core_fulfillment_order_line_item_id');
  }
  const hits = foLines.filter(
    (l) =>
      (!line.core_fulfillment_order_line_item_id || l.id === line.core_fulfillment_order_line_item_id) &&
      (!line.product_id || l.product_id === line.product_id) &&
      (!line.sku || l.sku === line.sku),
  );
  if (hits.length === 0) {
    const what = [
      line.sku && `sku ${line.sku}`,
      line.product_id && `product ${line.product_id}`,
      line.core_fulfillment_order_line_item_id && `line item ${line.core_fulfillment_order_line_item_id}`,
    ]
      .filter(Boolean)
      .join(', ');
    throw invalid(`body.${path}`, `does not match a line item of fulfillment order ${foId} (${what})`);
  }
  if (hits.length > 1)
    throw invalid(`body.${path}`, 'matches several line items of the fulfillment order; give core_fulfillment_order_line_item_id');
  return hits[0];
}

/** Matches and checks the lines against the fulfillment order's (from packingLines), and fills in what they copy. */
export function resolveLines(fo: { id: string; line_items: PackingLine[] }, lines: LineInput[]): ResolvedLine[] {
  const matched = lines.map((line, i) => matchLine(fo.id, fo.line_items, line, i));
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
