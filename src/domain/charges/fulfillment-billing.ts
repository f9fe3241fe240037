import type { Statements } from '../../db/statements.js';
import type { TxClient } from '../../db/types.js';
import type { BillableEvent } from '../../contract/rate-cards.js';
import { chargeRow, insertBilled, priceBillable, type Billable, type ChargeLinks } from './billing.js';
import { cachedVersion, compiledVersion, type CompiledVersion } from './pricing.js';
import type { ShippingChargeInput } from './shipping.js';
import { labelCost, orderConfigOf, shippingLabelConfig, shippingLinks, tagsOf } from './shipping.js';
import { findCardName, findVersionOrThrow } from './store/rate-cards.js';
import { fulfillmentKey, jsonOf, packedProducts, type ShippingRow } from './store/statements.js';

// A fulfillment billed by the delegation's versioned rate card (docs/billing.md): SHIPPING (the
// label cost by the card), PICK (units picked for the package: first and additional units, a
// product's pick_fee_override), PACK and PACKAGING (the carton used), each once per fulfillment
// (billing keys "<EVENT>:fulfillment:<id>"). On the fulfill's transaction and its prepared
// statements: the inputs came with the shipping read (store/statements.ts); the package's products are one
// more read when the card has pick fees; the charges are one insert; the version is compiled once.

const GRAMS: Record<string, number> = { G: 1, KG: 1000, LB: 453.59237, OZ: 28.349523125 };

async function versionById(tx: TxClient, id: string): Promise<CompiledVersion> {
  const hit = cachedVersion(id);
  if (hit) return hit;
  const v = await findVersionOrThrow(tx, id);
  const card = await findCardName(tx, v.rate_card_id);
  return compiledVersion({ ...v, rate_card_name: card.name });
}

/** What every fee of a fulfillment sees: merchant, warehouse, carrier, service, zone, order, weight, units. */
function baseEvent(st: Statements, row: ShippingRow, input: ShippingChargeInput): Omit<BillableEvent, 'event'> {
  const { label, package: pkg } = input;
  const weight = pkg.weight === null || pkg.weight === undefined ? null : pkg.weight * (GRAMS[pkg.weight_unit ?? 'G'] ?? 1);
  return {
    merchant_team_id: input.merchantTeamId,
    warehouse_id: row.w_id ?? null,
    carrier: label?.carrier_id ?? pkg.carrier_id ?? null,
    carrier_type: label?.carrier_integration_type ?? pkg.carrier_integration_type ?? null,
    service: label?.service_id ?? pkg.service_id ?? null,
    zone: label?.zone ?? null,
    order_tags: row.o_id ? tagsOf(jsonOf(st, row.o_tags)) : [],
    shop_type: row.o_id ? (row.s_shop_type ?? 'MANUAL') : null,
    units: Number(pkg.total_item_quantity ?? 0),
    lines: Number(pkg.unique_line_item_count ?? 0),
    weight_g: weight === null ? null : Math.round(weight * 1000) / 1000,
    carton: pkg.carton_id ?? pkg.carton_name ?? null,
  };
}

export async function billFulfillmentByCard(
  tx: TxClient,
  st: Statements,
  row: ShippingRow,
  input: ShippingChargeInput,
  now: Date,
): Promise<{ id: string } | null> {
  if (!row.v_id) return null; // no version in force yet
  const version = await versionById(tx, row.v_id);
  const base = baseEvent(st, row, input);
  const { label: labelRow, package: pkg } = input;
  const order = row.o_id ? orderConfigOf(st, row) : null;
  const label = labelRow ? shippingLabelConfig(labelRow, pkg) : null;
  const ref = row.o_order_number ?? input.orderId;
  const links: ChargeLinks = {
    order_id: input.orderId,
    fulfillment_id: input.fulfillmentId,
    fulfillment_order_id: input.fulfillmentOrderId,
    warehouse_id: row.w_id ?? null,
    warehouse_name: row.w_name ?? null,
    carton_id: pkg.carton_id ?? null,
    carton_name: pkg.carton_name ?? null,
  };
  const common = { origination: 'ORDER' as const, order, links };
  const key = (event: string) => fulfillmentKey(event, input.fulfillmentId);
  const billables: Billable[] = [];
  if (version.rules.has('SHIPPING')) {
    billables.push({
      ...common,
      key: key('SHIPPING'),
      event: { ...base, event: 'SHIPPING', label_cost: labelCost(labelRow) ?? 0 },
      name: `Shipping ${ref}${labelRow?.tracking_code ? ` (${labelRow.tracking_code})` : ''}`,
      description: labelRow?.formatted_service ?? null,
      shipping_label: label,
      currency: labelRow?.currency,
      links: { ...links, ...shippingLinks(labelRow, pkg) },
    });
  }
  if (version.rules.has('PICK')) {
    const products = await packedProducts(st, input.packageId);
    billables.push({ ...common, key: key('PICK'), event: { ...base, event: 'PICK', products }, name: `Pick ${ref}` });
  }
  if (version.rules.has('PACK')) billables.push({ ...common, key: key('PACK'), event: { ...base, event: 'PACK' }, name: `Pack ${ref}` });
  if (version.rules.has('PACKAGING') && base.carton) {
    const name = `Packaging ${pkg.carton_name ?? base.carton} ${ref}`;
    billables.push({ ...common, key: key('PACKAGING'), event: { ...base, event: 'PACKAGING' }, name });
  }
  const d = {
    id: row.d_id!,
    merchant_team_id: input.merchantTeamId,
    fulfiller_team_id: input.fulfillerTeamId,
    rate_card_id: row.d_rate_card_id,
    active: true,
  };
  const rows = billables.flatMap((b) => {
    const pricing = priceBillable(version, b);
    return pricing ? [chargeRow(d, b, pricing)] : [];
  });
  // The fulfill's events leave with its COMMIT (fulfill.ts), and so do its charges': nothing reads them back before it.
  const charges = await insertBilled(tx, st, rows, now, { atCommit: true });
  const shipping = charges.find((c) => c.category === 'SHIPPING');
  return shipping ? { id: shipping.id } : null;
}
