import type { TxClient } from '../../db/types.js';
import type { OrderFacts } from './compile.js';

// What rule conditions read, from the stored order (one query with its core lines, their
// products' weights and its shop) or from a hypothetical order (POST …/automation-rules/test).

const GRAMS_PER_LB = 453.59237;

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
  /** weight in grams per unit */
  lines: { sku: string | null; quantity: number; weight: number }[];
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
  };
}

const grams = (p: { weight: number | null; weight_unit: string } | null) =>
  !p?.weight ? 0 : p.weight_unit === 'LB' ? p.weight * GRAMS_PER_LB : p.weight;

export const FACT_SELECT = {
  id: true,
  order_number: true,
  status: true,
  fulfiller_team_id: true,
  merchant_team_id: true,
  shop_id: true,
  tags: true,
  shipping_address: true,
  total_price: true,
  shipping_method: true,
  priority: true,
  carrier_selection: true,
  line_items: {
    where: { kind: 'CORE' as const },
    select: { sku: true, product_id: true, total_quantity: true, removed_quantity: true },
  },
} as const;

export async function loadOrderFacts(tx: TxClient, teamId: string, orderId: string) {
  const order = await tx.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: FACT_SELECT });
  if (!order) return null;
  const ids = [...new Set(order.line_items.map((l) => l.product_id).filter((id): id is string => !!id))];
  const products = ids.length
    ? await tx.product.findMany({ where: { id: { in: ids } }, select: { id: true, weight: true, weight_unit: true } })
    : [];
  const weight = new Map(products.map((p) => [p.id, grams(p)]));
  const shop = order.shop_id ? await tx.shop.findUnique({ where: { id: order.shop_id }, select: { shop_type: true } }) : null;
  const facts = factsOf({
    ...order,
    shop_type: shop?.shop_type ?? null,
    tags: Array.isArray(order.tags) ? (order.tags as string[]) : [],
    shipping_address: (order.shipping_address ?? null) as FactsInput['shipping_address'],
    lines: order.line_items.map((l) => ({
      sku: l.sku,
      quantity: l.total_quantity - l.removed_quantity,
      weight: (l.product_id && weight.get(l.product_id)) || 0,
    })),
  });
  return { order, facts };
}
