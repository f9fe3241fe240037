import type { TxClient } from '../../db/types.js';
import type { OrderFacts } from './compile.js';
import * as store from './store.js';

// What rule conditions read, from the stored order (one query with its core lines, their
// products' weights and dimensions and its shop), from an order being written (orders/place.ts,
// before allocation: a routing rule must be known first) or from a hypothetical order
// (POST …/automation-rules/test). `now` is the caller's clock (deliver_by conditions).

const GRAMS_PER_LB = 453.59237;
const MM_PER_IN = 25.4;

const str = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : '');

export interface FactsInput {
  merchant_team_id?: string | null;
  shop_id?: string | null;
  shop_type?: string | null;
  tags?: string[];
  shipping_address?: { country?: unknown; state?: unknown; zip?: unknown } | null;
  total_price?: number;
  shipping_method?: string | null;
  priority?: string;
  address_residential?: string | null;
  deliver_by?: Date | string | null;
  /** epoch ms */
  now: number;
  /** weight in grams per unit; dims: the unit's sides in mm */
  lines: { sku: string | null; quantity: number; weight: number; dims?: number[] }[];
}

export function factsOf(o: FactsInput): OrderFacts {
  const lines = o.lines.filter((l) => l.quantity > 0);
  const skus = new Set(lines.map((l) => l.sku).filter((s): s is string => !!s));
  return {
    merchant_team_id: o.merchant_team_id ?? null,
    shop_id: o.shop_id ?? null,
    shop_type: o.shop_type ?? (o.shop_id ? null : 'MANUAL'),
    tags: new Set(o.tags ?? []),
    country: str(o.shipping_address?.country),
    state: str(o.shipping_address?.state),
    zip: str(o.shipping_address?.zip).replace(/\s+/g, ''),
    weight: lines.reduce((s, l) => s + l.weight * l.quantity, 0),
    item_count: lines.reduce((s, l) => s + l.quantity, 0),
    line_count: skus.size || lines.length,
    order_total: o.total_price ?? 0,
    skus,
    shipping_method: str(o.shipping_method),
    priority: o.priority ?? 'NORMAL',
    residential: o.address_residential === 'RESIDENTIAL',
    longest_side: lines.reduce((m, l) => Math.max(m, ...(l.dims ?? [0])), 0),
    volume: lines.reduce((s, l) => s + (l.dims?.length === 3 ? (l.dims[0] * l.dims[1] * l.dims[2]) / 1000 : 0) * l.quantity, 0),
    deliver_by: o.deliver_by ? new Date(o.deliver_by).getTime() : null,
    now: o.now,
  };
}

const grams = (p: { weight: number | null; weight_unit: string } | null) =>
  !p?.weight ? 0 : p.weight_unit === 'LB' ? p.weight * GRAMS_PER_LB : p.weight;

interface Measured {
  id: string;
  weight: number | null;
  weight_unit: string;
  length: number | null;
  width: number | null;
  height: number | null;
  measurement_unit: string;
}
const mm = (p: Measured) => {
  const f = p.measurement_unit === 'IN' ? MM_PER_IN : 1;
  return [p.length, p.width, p.height].map((v) => (v ?? 0) * f);
};

/** Weight (g) and sides (mm) per unit of the given products, one query. */
async function measures(tx: TxClient, productIds: (string | null)[]) {
  const ids = [...new Set(productIds.filter((id): id is string => !!id))];
  const products: Measured[] = ids.length ? await store.findMeasures(tx, ids) : [];
  return new Map(products.map((p) => [p.id, { weight: grams(p), dims: mm(p) }]));
}

const shopType = async (tx: TxClient, shopId: string | null) =>
  shopId ? ((await store.findShopType(tx, shopId))?.shop_type ?? null) : null;

/** Facts of an order about to be written (its planned columns and core lines). */
export async function plannedFacts(
  tx: TxClient,
  fields: Omit<FactsInput, 'lines' | 'now' | 'tags'> & { tags?: unknown },
  cores: { product_id: string; sku?: string | null; total_quantity: number }[],
  now: number,
) {
  const m = await measures(
    tx,
    cores.map((c) => c.product_id),
  );
  return factsOf({
    ...fields,
    shop_type: await shopType(tx, fields.shop_id ?? null),
    tags: Array.isArray(fields.tags) ? (fields.tags as string[]) : [],
    now,
    lines: cores.map((c) => ({ sku: c.sku ?? null, quantity: c.total_quantity, ...(m.get(c.product_id) ?? { weight: 0 }) })),
  });
}

export { FACT_SELECT } from './store.js';

export async function loadOrderFacts(tx: TxClient, teamId: string, orderId: string, now: number) {
  const order = await store.findOrderFacts(tx, teamId, orderId);
  if (!order) return null;
  const m = await measures(
    tx,
    order.line_items.map((l) => l.product_id),
  );
  const facts = factsOf({
    ...order,
    shop_type: await shopType(tx, order.shop_id),
    tags: Array.isArray(order.tags) ? (order.tags as string[]) : [],
    shipping_address: (order.shipping_address ?? null) as FactsInput['shipping_address'],
    now,
    lines: order.line_items.map((l) => ({
      sku: l.sku,
      quantity: l.total_quantity - l.removed_quantity,
      ...((l.product_id && m.get(l.product_id)) || { weight: 0 }),
    })),
  });
  return { order, facts };
}
