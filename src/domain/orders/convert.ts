import type { Db, Prisma } from '../../db/types.js';
import { searchKey } from '../search.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/outbox.js';
import { addressHash, verifyAddress } from './address.js';
import { queueReservations, allocateLines } from './allocation.js';
import { PRIORITY_RANK } from './constants.js';
import { assignOrderNumber, placeholderNumber } from './numbers.js';
import type { DraftPayload } from './drafts.js';
import { writeFulfillmentOrders, type CoreLine } from './fulfillment-split.js';
import { createPaymentHold } from './holds.js';
import { allocatePending } from './pending.js';
import { lineItemHash, orderTotals } from './totals.js';
import { inTransaction } from './tx.js';
import { getOrder } from './orders.js';

// Draft -> order, in one transaction: compare-and-set the draft OPEN -> CONVERTED (a second or
// concurrent conversion finds it CONVERTED: 409), number the order, commit inventory, write the
// CORE and ORIGINAL line items, one fulfillment order per shipping warehouse, the payment hold
// and the order.created event. Units without stock stay unallocated on the OPEN order and are
// allocated later by priority (allocatePending).

type CoreSpec = Omit<Prisma.OrderLineItemCreateManyInput, 'order_id'> & { key: string; product_id: string };

export async function convertDraftOrder(db: Db, fulfillerTeamId: string, draftId: string) {
  const draft = await db.prisma.draftOrder.findFirst({
    where: { id: draftId, fulfiller_team_id: fulfillerTeamId },
    include: { line_items: { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] } },
  });
  if (!draft) throw notFound('Draft order', draftId);
  if (draft.status !== 'OPEN') throw alreadyConverted(draft.id, draft.order_id);
  const p = draft.payload as unknown as DraftPayload;

  // Virtual bundles ship as their components: ORIGINAL lines are what was sold, CORE lines what is picked.
  const products = await db.prisma.product.findMany({
    where: { id: { in: draft.line_items.map((l) => l.product_id) } },
    include: { components: { where: { kind: 'VIRTUAL_BUNDLE' }, include: { component: true }, orderBy: { created_at: 'asc' } } },
  });
  const productOf = new Map(products.map((x) => [x.id, x]));
  const originals: Omit<Prisma.OrderLineItemCreateManyInput, 'order_id'>[] = [];
  const cores: CoreSpec[] = [];
  for (const l of draft.line_items) {
    const product = productOf.get(l.product_id);
    const common = { core_draft_order_line_item_id: l.id, remaining_quantity: l.quantity, total_quantity: l.quantity };
    originals.push({
      ...common, kind: 'ORIGINAL', product_id: l.product_id, original_draft_order_line_item_id: l.id, shop_id: draft.shop_id,
      sku: l.sku, name: l.name, image_url: product?.image_url ?? null, price: l.price, applied_discount_amount: l.applied_discount_amount,
    });
    const parts = product?.type === 'VIRTUAL_BUNDLE' && product.components.length
      ? product.components.map((c) => ({ item: c.component, quantity: l.quantity * Math.max(1, Math.round(c.component_quantity)) }))
      : [{ item: product ?? { id: l.product_id, sku: l.sku, name: l.name, image_url: null }, quantity: l.quantity }];
    for (const part of parts) {
      cores.push({
        key: `${l.id}:${part.item.id}`, kind: 'CORE', product_id: part.item.id, core_draft_order_line_item_id: l.id,
        sku: part.item.sku, name: part.item.name, image_url: part.item.image_url,
        total_quantity: part.quantity, remaining_quantity: part.quantity, price: parts.length === 1 ? l.price : 0,
      });
    }
  }

  const paid = p.payment_status === 'PAID';
  const verification = p.config.address_verification_enabled ? verifyAddress(p.shipping_address) : null;
  const customer = p.customer ?? { email: null, name: null, phone: null };
  const rank = PRIORITY_RANK[p.priority];
  const orderFields = {
    merchant_team_id: draft.merchant_team_id,
    fulfiller_team_id: fulfillerTeamId,
    shop_id: draft.shop_id,
    status: 'OPEN' as const,
    fulfillment_status: 'UNFULFILLED',
    payment_status: p.payment_status,
    priority: p.priority,
    priority_rank: rank,
    currency: p.currency,
    note: p.note,
    shipping_method: p.shipping_method,
    deliver_by: p.deliver_by ? new Date(p.deliver_by) : null,
    line_item_hash: lineItemHash(cores.map((c) => ({ product_id: c.product_id, sku: c.sku ?? null, quantity: c.total_quantity }))),
    tags: p.tags,
    ...orderTotals(draft.line_items, { total_tax: p.total_tax, total_shipping: p.total_shipping, paid }),
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
    search_text: [customer.name, customer.email].filter(Boolean).map(searchKey).join(' '),
  };

  const orderId = await inTransaction(db, async (tx) => {
    const claimed = await tx.draftOrder.updateMany({
      where: { id: draft.id, fulfiller_team_id: fulfillerTeamId, status: 'OPEN' },
      data: { status: 'CONVERTED' },
    });
    if (claimed.count !== 1) {
      const now = await tx.draftOrder.findUnique({ where: { id: draft.id }, select: { order_id: true } });
      throw alreadyConverted(draft.id, now?.order_id ?? null);
    }
    const productIds = [...new Set(cores.map((c) => c.product_id))];
    const reserved = await queueReservations(tx, fulfillerTeamId, productIds, rank);
    const allocations = await allocateLines(tx, fulfillerTeamId, cores.map((c) => ({ key: c.key, product_id: c.product_id, quantity: c.total_quantity })), reserved, `draft:${draft.id}`);
    const allocated = new Map<string, number>();
    for (const a of allocations) allocated.set(a.key, (allocated.get(a.key) ?? 0) + a.quantity);
    const unallocated = (c: CoreSpec) => c.total_quantity - (allocated.get(c.key) ?? 0);

    const order = await tx.order.create({
      data: {
        ...orderFields,
        ...placeholderNumber(draft.id),
        unallocated_quantity: cores.reduce((s, c) => s + unallocated(c), 0),
      },
    });
    const coreRows = await tx.orderLineItem.createManyAndReturn({
      data: cores.map(({ key: _key, ...c }) => ({ ...c, order_id: order.id, unallocated_quantity: unallocated({ key: _key, ...c }) })),
    });
    await tx.orderLineItem.createMany({ data: originals.map((o) => ({ ...o, order_id: order.id })) });
    await tx.draftOrder.update({ where: { id: draft.id }, data: { order_id: order.id } });
    // Stock was committed before the order row existed; its movements name the order from here on.
    await tx.inventoryMovement.updateMany({
      where: { reference_type: 'draft_order', reference_id: draft.id, kind: 'COMMITTED' },
      data: { reference_type: 'order', reference_id: order.id },
    });
    if (!paid) await createPaymentHold(tx, order.id);

    const idOfKey = new Map(coreRows.map((r) => [`${r.core_draft_order_line_item_id}:${r.product_id}`, r.id]));
    const lines = new Map<string, CoreLine>(coreRows.map((r) => [r.id, r]));
    await writeFulfillmentOrders(tx, order, lines,
      allocations.map((a) => ({ ...a, key: idOfKey.get(a.key)! })), { appendToPending: false });
    const orderNumber = await assignOrderNumber(tx, order.id, fulfillerTeamId, p.order_number);
    await enqueueEvent(tx, fulfillerTeamId, 'order.created', {
      order_id: order.id, order_number: orderNumber, draft_order_id: draft.id,
      merchant_team_id: order.merchant_team_id, priority: order.priority, payment_status: order.payment_status,
    });
    return order.id;
  });

  // Stock this order left (or that arrived meanwhile) goes to waiting orders by priority. The
  // conversion has committed; a failure here only delays allocation to the next run.
  await allocatePending(db, fulfillerTeamId).catch(() => undefined);
  return getOrder(db, fulfillerTeamId, orderId);
}

const alreadyConverted = (draftId: string, orderId: string | null) =>
  conflict(`Draft order ${draftId} was already converted${orderId ? ` to order ${orderId}` : ''}.`, { order_id: orderId });

