import { newId } from '../../db/ids.js';
import type { Prisma, TxClient } from '../../db/types.js';
import { searchKey } from '../search.js';
import { enqueueEvent } from '../events/index.js';
import { addressHash, verifyAddress } from './address.js';
import { queueReservations, allocateLines } from './allocation.js';
import { PRIORITY_RANK } from '../../contract/orders-enums.js';
import type { DraftPayload } from './drafts.js';
import { writeFulfillmentOrders, type CoreLine } from './fulfillment-split.js';
import { createPaymentHold, placeHold, type NewHold } from './holds.js';
import { assignOrderNumber, placeholderNumber } from './numbers.js';
import { lineItemHash, orderTotals } from './totals.js';
import { setOrderTags } from './tags.js';
import { intakeRules } from './intake-rules.js';
import { insertCoreLines, insertOrder, insertOriginalLines } from './store/place.js';

// Writing a new order: the one code path of draft conversion (convert.ts) and sales-channel
// intake (src/domain/channels/intake.ts). planOrder turns what was sold into ORIGINAL lines (as
// sold) and CORE lines (what is picked: virtual bundles become their components) plus the order
// columns; writeOrder, inside the caller's transaction, commits inventory, writes the order, its
// lines, one fulfillment order per shipping warehouse, its holds, its number, the automation
// rules' decisions and order.created.

export interface SoldProduct {
  id: string;
  sku: string | null;
  name: string;
  image_url: string | null;
  type?: string;
  components?: { component_quantity: number; component: { id: string; sku: string | null; name: string; image_url: string | null } }[];
}

export interface SoldLine {
  /** The matched product; null = a line that matched none (kept as an ORIGINAL line only). */
  product: SoldProduct | null;
  sku: string | null;
  name: string;
  quantity: number;
  price: number;
  applied_discount_amount: number;
  draft_line_id?: string;
  remote_id?: string | null;
  product_listing_id?: string | null;
  product_listing_variant_id?: string | null;
}

export interface OrderParties {
  merchant_team_id: string;
  fulfiller_team_id: string;
  shop_id: string | null;
}

type CoreSpec = Omit<Prisma.OrderLineItemCreateManyInput, 'order_id'> & { id: string; product_id: string };

export function planOrder(parties: OrderParties, p: DraftPayload, lines: SoldLine[]) {
  const originals: Omit<Prisma.OrderLineItemCreateManyInput, 'order_id'>[] = [];
  const cores: CoreSpec[] = [];
  for (const l of lines) {
    const common = { core_draft_order_line_item_id: l.draft_line_id ?? null, remaining_quantity: l.quantity, total_quantity: l.quantity };
    originals.push({
      ...common,
      kind: 'ORIGINAL',
      product_id: l.product?.id ?? null,
      original_draft_order_line_item_id: l.draft_line_id ?? null,
      shop_id: parties.shop_id,
      sku: l.sku,
      name: l.name,
      image_url: l.product?.image_url ?? null,
      price: l.price,
      applied_discount_amount: l.applied_discount_amount,
      remote_id: l.remote_id ?? null,
      product_listing_id: l.product_listing_id ?? null,
      product_listing_variant_id: l.product_listing_variant_id ?? null,
      synced_at: l.remote_id ? new Date() : null,
    });
    if (!l.product) continue;
    const product = l.product;
    const parts =
      product.type === 'VIRTUAL_BUNDLE' && product.components?.length
        ? product.components.map((c) => ({ item: c.component, quantity: l.quantity * Math.max(1, Math.round(c.component_quantity)) }))
        : [{ item: product, quantity: l.quantity }];
    for (const part of parts) {
      cores.push({
        id: newId(),
        kind: 'CORE',
        product_id: part.item.id,
        core_draft_order_line_item_id: l.draft_line_id ?? null,
        sku: part.item.sku,
        name: part.item.name,
        image_url: part.item.image_url,
        remote_id: l.remote_id ?? null,
        total_quantity: part.quantity,
        remaining_quantity: part.quantity,
        price: parts.length === 1 ? l.price : 0,
      });
    }
  }

  const paid = p.payment_status === 'PAID';
  const verification = p.config.address_verification_enabled ? verifyAddress(p.shipping_address) : null;
  const customer = p.customer ?? { email: null, name: null, phone: null };
  const fields = {
    ...parties,
    status: 'OPEN' as const,
    fulfillment_status: 'UNFULFILLED',
    payment_status: p.payment_status,
    priority: p.priority,
    priority_rank: PRIORITY_RANK[p.priority],
    currency: p.currency,
    note: p.note,
    shipping_method: p.shipping_method,
    deliver_by: p.deliver_by ? new Date(p.deliver_by) : null,
    line_item_hash: lineItemHash(cores.map((c) => ({ product_id: c.product_id, sku: c.sku ?? null, quantity: c.total_quantity }))),
    tags: p.tags,
    ...orderTotals(lines, { total_tax: p.total_tax, total_shipping: p.total_shipping, paid }),
    metadata: p.metadata,
    shipping_address: p.shipping_address ?? undefined,
    billing_address: p.billing_address ?? undefined,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: customer.phone,
    address_verified: verification?.verified ?? false,
    address_residential: verification?.residential ?? 'UNKNOWN',
    address_verified_at: verification?.verified ? new Date() : null,
    address_hash: addressHash(p.shipping_address),
    address_verification_response: (verification ?? undefined) as never,
    is_fragile: p.is_fragile,
    core_line_item_count: cores.reduce((s, c) => s + c.total_quantity, 0),
    unique_core_line_item_count: new Set(cores.map((c) => c.product_id)).size,
    line_item_image_urls: [...new Set(cores.map((c) => c.image_url).filter((u): u is string => !!u))],
    config: p.config,
    // A person's carrier selection from the draft (person_set): the rules at intake keep it.
    ...(p.carrier_selection ? { carrier_selection: p.carrier_selection as Prisma.InputJsonValue } : {}),
    search_text: [customer.name, customer.email].filter(Boolean).map(searchKey).join(' '),
  };
  return { originals, cores, fields, paid, verification, orderNumber: p.order_number };
}

export type OrderPlan = ReturnType<typeof planOrder>;

export interface WriteOptions {
  /** Pre-chosen order id (its inventory movements name it from the start). */
  orderId?: string;
  /** Commitment reference while the row does not exist yet: `draft:<id>` for a conversion. */
  reference?: string;
  /** Extra order columns (remote_id, synced_at of a channel order). */
  extra?: Partial<Prisma.OrderUncheckedCreateInput>;
  /** Holds beyond the payment hold (unmatched lines, failed address verification). */
  holds?: Omit<NewHold, 'orderId'>[];
  /** Number to try when the requested one is taken (a channel's "#1001" beside fos's own). */
  fallbackNumber?: string;
  event?: Record<string, unknown>;
  /** false: an unpaid order ships anyway (a shop that ships on an authorized payment). */
  paymentHold?: boolean;
  /** The application's clock (epoch ms) for the automation rules; default: now. */
  now?: number;
}

/** Writes the planned order inside `tx`; returns its id and number. */
export async function writeOrder(tx: TxClient, plan: OrderPlan, opts: WriteOptions = {}) {
  const team = plan.fields.fulfiller_team_id;
  const orderId = opts.orderId ?? newId();
  const { cores } = plan;
  const now = opts.now ?? Date.now();
  // Automation rules (docs/automation.md) decide before allocation: a routing rule picks the warehouse.
  const rules = intakeRules.get();
  const decided = await rules.decide(tx, team, plan.fields, cores, now);
  const route = decided?.route ?? null;
  const rank = decided?.priority ? PRIORITY_RANK[decided.priority as keyof typeof PRIORITY_RANK] : plan.fields.priority_rank;
  const reserved = await queueReservations(tx, team, [...new Set(cores.map((c) => c.product_id))], rank);
  const allocations = await allocateLines(
    tx,
    team,
    cores.map((c) => ({ key: c.id, product_id: c.product_id, quantity: c.total_quantity })),
    reserved,
    opts.reference ?? orderId,
    route,
  );
  const allocated = new Map<string, number>();
  for (const a of allocations) allocated.set(a.key, (allocated.get(a.key) ?? 0) + a.quantity);
  const unallocated = (c: CoreSpec) => c.total_quantity - (allocated.get(c.id) ?? 0);

  const order = await insertOrder(tx, {
    id: orderId,
    ...plan.fields,
    ...opts.extra,
    ...placeholderNumber(orderId),
    unallocated_quantity: cores.reduce((s, c) => s + unallocated(c), 0),
  });
  await setOrderTags(tx, order, Array.isArray(order.tags) ? (order.tags as string[]) : []);
  const coreRows = await insertCoreLines(
    tx,
    cores.map((c) => ({ ...c, order_id: order.id, unallocated_quantity: unallocated(c) })),
  );
  await insertOriginalLines(
    tx,
    plan.originals.map((o) => ({ ...o, order_id: order.id })),
  );
  if (!plan.paid && opts.paymentHold !== false) await createPaymentHold(tx, order.id);
  for (const h of opts.holds ?? []) await placeHold(tx, { ...h, orderId: order.id });
  const lines = new Map<string, CoreLine>(coreRows.map((r) => [r.id, r]));
  await writeFulfillmentOrders(tx, order, lines, allocations, { appendToPending: false });
  let orderNumber: string;
  try {
    orderNumber = await assignOrderNumber(tx, order.id, team, plan.orderNumber);
  } catch (err) {
    if (!opts.fallbackNumber) throw err;
    orderNumber = await assignOrderNumber(tx, order.id, team, opts.fallbackNumber);
  }
  // The rules' decision written on the order (trace, selection, config, tags, holds, routing).
  await rules.apply(tx, team, order.id, now, decided);
  await enqueueEvent(tx, team, 'order.created', {
    order_id: order.id,
    order_number: orderNumber,
    ...opts.event,
    merchant_team_id: order.merchant_team_id,
    priority: decided?.priority ?? order.priority,
    payment_status: order.payment_status,
  });
  return { orderId: order.id, orderNumber };
}
