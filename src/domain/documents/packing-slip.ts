import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { resolveConfig } from '../fulfillment/index.js';
import { renderSlip, type Slip, type SlipLine } from './packing-slip-render.js';
import * as store from './store.js';

// Packing slip PDF of a package (spec 2.7 packing_slip_url), rendered on request so it always
// shows the package as it is now; served only to the fulfiller team (route: GET
// /v1/ops/packages/{id}/packing-slip). What a merchant would put in the box: its name and the
// return address (the shipping warehouse), the order number and date, the ship-to address, an
// item table (SKU, description, ordered, shipped in this package, remaining), the order's note,
// page numbers. The package config adds:
//  - show_prices_on_packing_slip: unit price and line total, and the total of the package;
//  - show_unfulfilled_items_on_packing_list: the order's other units still to ship (to follow).

export async function packingSlipPdf(db: Db, teamId: string, id: string): Promise<Uint8Array> {
  return renderSlip(await slipOf(db, teamId, id));
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Address lines: name, company, street lines, "city, state zip", country (either key set). */
export function addressLines(a: Record<string, unknown> | null | undefined): string[] {
  if (!a) return [];
  const cityLine = [text(a.city), [text(a.state), text(a.zip)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [
    text(a.name),
    text(a.company),
    text(a.street1) ?? text(a.address1),
    text(a.street2) ?? text(a.address2),
    cityLine,
    text(a.country),
  ].filter((l): l is string => Boolean(l));
}

async function slipOf(db: Db, teamId: string, id: string): Promise<Slip> {
  const pkg = await store.findPackageWithLines(db.prisma, teamId, id);
  if (!pkg) throw notFound('Package', id);
  const fo = pkg.fulfillment_order_id ? await store.findSlipOrder(db.prisma, pkg.fulfillment_order_id) : null;
  const [merchant, warehouse] = await Promise.all([
    fo ? store.findTeamName(db.prisma, fo.merchant_team_id) : null,
    fo ? store.findWarehouse(db.prisma, fo.warehouse_id) : null,
  ]);
  const config = resolveConfig(null, pkg.config);
  const priceOf = new Map((fo?.order.line_items ?? []).map((l) => [l.id, l.price]));
  const packed = new Map<string, number>();
  for (const l of pkg.line_items) {
    const key = l.core_fulfillment_order_line_item_id ?? `pkg:${l.id}`;
    packed.set(key, (packed.get(key) ?? 0) + l.quantity);
  }
  // Remaining after this package: a PENDING package's units are not yet taken off remaining.
  const pending = pkg.status === 'PENDING';
  const foLines: SlipLine[] = (fo?.line_items ?? []).map((l) => {
    const shipped = packed.get(l.id) ?? 0;
    return {
      sku: l.sku,
      name: l.name,
      ordered: l.quantity,
      shipped,
      remaining: Math.max(0, l.remaining_quantity - (pending ? shipped : 0)),
      price: priceOf.get(l.order_line_item_id) ?? null,
    };
  });
  // Package lines not tied to a fulfillment order line (a package without one).
  const loose: SlipLine[] = pkg.line_items
    .filter((l) => !l.core_fulfillment_order_line_item_id)
    .map((l) => ({ sku: l.sku, name: l.name ?? l.sku ?? '', ordered: l.quantity, shipped: l.quantity, remaining: 0, price: null }));
  return {
    title: fo ? `Packing slip ${fo.order.order_number}` : `Packing slip ${pkg.id}`,
    merchant: merchant?.name ?? null,
    returnAddress: warehouse
      ? addressLines({
          name: warehouse.name,
          address1: warehouse.address1,
          city: warehouse.city,
          state: warehouse.state,
          zip: warehouse.zip,
          country: warehouse.country,
        })
      : [],
    orderNumber: fo?.order.order_number ?? null,
    orderDate: fo?.order.created_at ?? null,
    packageName: pkg.name ?? pkg.id,
    shipTo: addressLines((pkg.to_address ?? fo?.order.shipping_address ?? null) as Record<string, unknown> | null),
    items: [...foLines.filter((l) => l.shipped > 0), ...loose],
    toFollow: config.show_unfulfilled_items_on_packing_list === true ? foLines.filter((l) => l.shipped === 0 && l.remaining > 0) : [],
    prices: config.show_prices_on_packing_slip === true,
    currency: fo?.order.currency ?? 'USD',
    note: fo?.order.note ?? null,
  };
}
