import type { TxClient } from '../../db/types.js';
import { applyToProductLevels } from '../inventory/ledger.js';
import { placeHold } from '../orders/holds.js';

// A cancellation from the sales channel (Shopify orders/cancelled, WooCommerce cancelled or
// deleted). The order-exceptions area owns cancelOrder (src/domain/orders/cancel.ts on another
// branch); until it is merged this does what is safe with what exists here: work nobody has
// started (fulfillment orders PENDING or ACCEPTED, unlocked, with no package) is cancelled and
// its committed stock released through the ledger; units never allocated are dropped. When
// everything was such work the order is CANCELLED; otherwise it gets a CUSTOMER_REQUEST hold
// naming what is already under way, so nothing is shipped without a person deciding.

export async function cancelFromChannel(tx: TxClient, orderId: string, platform: string) {
  const now = new Date();
  const fos = await tx.fulfillmentOrder.findMany({ where: { order_id: orderId }, include: { line_items: true, packages: { select: { id: true } } } });
  const startable = fos.filter((fo) => ['PENDING', 'ACCEPTED'].includes(fo.status) && !fo.packages.length
    && (!fo.lock_owner || (fo.lock_expires_at && fo.lock_expires_at < now)));
  const cancelledFo: string[] = [];
  const releasedByLine = new Map<string, number>();
  for (const fo of startable) {
    // Compare-and-set: a lock or a status change since the read keeps the fulfillment order.
    const claimed = await tx.fulfillmentOrder.updateMany({
      where: { id: fo.id, status: fo.status, OR: [{ lock_owner: null }, { lock_expires_at: { lt: now } }] },
      data: { status: 'CANCELLED', lock_owner: null, lock_expires_at: null },
    });
    if (claimed.count !== 1) continue;
    cancelledFo.push(fo.id);
    const perProduct = new Map<string, number>();
    for (const l of fo.line_items) {
      if (!l.product_id || l.remaining_quantity <= 0) continue;
      perProduct.set(l.product_id, (perProduct.get(l.product_id) ?? 0) + l.remaining_quantity);
      releasedByLine.set(l.order_line_item_id, (releasedByLine.get(l.order_line_item_id) ?? 0) + l.remaining_quantity);
    }
    const short = await applyToProductLevels(tx, fo.warehouse_id, [...perProduct].map(([productId, q]) => ({ productId, deltas: { committed: -q } })),
      { kind: 'RELEASED', reason: 'CHANNEL_CANCELLED', reference_type: 'order', reference_id: orderId });
    if (short.length) throw new Error(`committed stock of ${short.join(', ')} is below what the order holds`);
    await tx.fulfillmentOrderLineItem.updateMany({ where: { fulfillment_order_id: fo.id }, data: { remaining_quantity: 0 } });
  }
  const lines = await tx.orderLineItem.findMany({ where: { order_id: orderId, kind: 'CORE' } });
  for (const l of lines) {
    const released = releasedByLine.get(l.id) ?? 0;
    const dropped = released + l.unallocated_quantity;
    if (!dropped) continue;
    await tx.orderLineItem.update({
      where: { id: l.id },
      data: { remaining_quantity: { decrement: dropped }, removed_quantity: { increment: dropped }, unallocated_quantity: 0 },
    });
  }
  const underway = fos.filter((fo) => !cancelledFo.includes(fo.id) && !['CANCELLED', 'FULFILLED'].includes(fo.status));
  const shipped = fos.some((fo) => fo.status === 'FULFILLED');
  if (!underway.length) {
    await tx.order.update({
      where: { id: orderId },
      data: { unallocated_quantity: 0, ...(shipped ? {} : { status: 'CANCELLED', cancelled_at: now }) },
    });
  } else {
    await tx.order.update({ where: { id: orderId }, data: { unallocated_quantity: 0 } });
    await placeHold(tx, {
      orderId, reason: 'CUSTOMER_REQUEST',
      notes: `Cancelled on ${platform}; ${underway.length} fulfillment order(s) already in progress were kept: stop or finish them by hand.`,
    });
  }
  return { cancelled_fulfillment_orders: cancelledFo.length, in_progress: underway.length };
}
