import type { TxClient } from '../../db/types.js';
import { conflict } from '../errors.js';
import type { EditedOrder } from './edit-lines.js';
import { lineItemHash, round2 } from './totals.js';
import {
  deleteFulfillmentOrderLines,
  findFulfillmentOrdersWithLines,
  findOrderLines,
  settleFulfillmentOrder,
  updateOrder,
} from './store/edits.js';

// After the line changes of an order edit (edit-lines.ts), in its transaction: fulfillment orders
// left with nothing settle, and the order's counters, fingerprint and totals follow its lines.

const OPEN_FO = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];

/** Open fulfillment orders the edit emptied: CANCELLED (nothing shipped) or FULFILLED; zero lines dropped. */
export async function settleFulfillmentOrders(tx: TxClient, orderId: string) {
  for (const fo of await findFulfillmentOrdersWithLines(tx, orderId, OPEN_FO)) {
    const left = fo.line_items.reduce((s, l) => s + l.remaining_quantity, 0);
    const shipped = fo.line_items.reduce((s, l) => s + l.quantity - l.remaining_quantity, 0);
    if (left > 0) {
      const empty = fo.line_items.filter((l) => l.quantity === 0).map((l) => l.id);
      if (empty.length) await deleteFulfillmentOrderLines(tx, empty);
      continue;
    }
    await settleFulfillmentOrder(tx, fo.id, shipped > 0 ? 'FULFILLED' : 'CANCELLED');
  }
}

/** Counters, fingerprint and totals of the order from its lines after the edit; true when nothing is left to ship. */
export async function refreshOrder(tx: TxClient, order: EditedOrder) {
  const lines = await findOrderLines(tx, order.id);
  const cores = lines.filter((l) => l.kind === 'CORE');
  const qty = (l: (typeof lines)[number]) => l.total_quantity - l.removed_quantity;
  if (!cores.some((l) => qty(l) > 0)) throw conflict(`Order ${order.order_number} would have no units left: cancel it instead.`);
  const left = cores.some((l) => l.remaining_quantity > 0);
  const originals = lines.filter((l) => l.kind === 'ORIGINAL');
  const subtotal = originals.reduce((s, l) => s + l.price * qty(l), 0);
  const discount = originals.reduce((s, l) => s + l.applied_discount_amount, 0);
  const total = round2(subtotal - discount + order.total_tax + order.total_shipping);
  await updateOrder(tx, order.id, {
    core_line_item_count: cores.reduce((s, l) => s + qty(l), 0),
    unique_core_line_item_count: new Set(cores.filter((l) => qty(l) > 0).map((l) => l.product_id)).size,
    line_item_image_urls: [
      ...new Set(
        cores
          .filter((l) => qty(l) > 0)
          .map((l) => l.image_url)
          .filter((u): u is string => !!u),
      ),
    ],
    line_item_hash: lineItemHash(cores.filter((l) => qty(l) > 0).map((l) => ({ product_id: l.product_id, sku: l.sku, quantity: qty(l) }))),
    total_price: total,
    total_discount: round2(discount),
    ...(order.payment_status === 'PAID' ? {} : { total_outstanding: total }),
  });
  // Removing the last unshipped units of a partly shipped order completes it (the caller closes it).
  return !left;
}
