import type { Db, TxClient } from '../../../db/types.js';

// What a shop's edit of an order reads and writes (edits.ts; issue 38 item 4): the order's
// lines and address, and its SHOP_EDIT and address holds. Each function is one statement on the
// client or transaction given.

type Client = Db['prisma'] | TxClient;

/** Every line of the order, by id. */
export function orderLines(client: Client, orderId: string) {
  return client.orderLineItem.findMany({ where: { order_id: orderId }, orderBy: { id: 'asc' } });
}

/** What decides whether an edit applies: the order's status, address and address lock. */
export function orderForEdit(client: Client, id: string) {
  return client.order.findUniqueOrThrow({
    where: { id },
    select: { status: true, shipping_address: true, lock_address: true },
  });
}

/** What the check of an edited address needs: the order's config and address. */
export function orderAddressConfig(client: Client, id: string) {
  return client.order.findUniqueOrThrow({ where: { id }, select: { config: true, shipping_address: true } });
}

export function findOpenShopEditHold(tx: TxClient, orderId: string) {
  return tx.orderFulfillmentHold.findFirst({ where: { order_id: orderId, active: true, reason: 'SHOP_EDIT' } });
}

export function setHoldNotes(tx: TxClient, id: string, notes: string) {
  return tx.orderFulfillmentHold.update({ where: { id }, data: { reason_notes: notes } });
}

/** How many active ADDRESS_VERIFICATION_FAILED holds the order has. */
export function countOpenAddressHolds(tx: TxClient, orderId: string) {
  return tx.orderFulfillmentHold.count({
    where: { order_id: orderId, active: true, reason: 'ADDRESS_VERIFICATION_FAILED' },
  });
}
