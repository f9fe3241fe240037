import type { Db, TxClient } from '../../../db/types.js';

// What the intake of channel orders reads and writes (intake.ts, deliveries.ts; issue 38 item 4):
// the shop's listing variants and the merchant's products its lines match, the fos order of a
// channel order (by shop and remote id, a unique index), and the order's sync and payment marks.
// Each function is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

/** The shop's listing variants of these platform variant ids. */
export function listingVariantsByRemoteIds(client: Client, shopId: string, remoteIds: string[]) {
  return client.productListingVariant.findMany({ where: { shop_id: shopId, remote_id: { in: remoteIds } } });
}

/**
 * The merchant's products by id or by SKU, with their virtual bundles' components, oldest first.
 * Both ORs stand under one AND: spread into one object, the id-or-SKU OR took the merchant's key
 * and a SKU matched another merchant's product.
 */
export function productsForLines(client: Client, merchantTeamId: string, productIds: string[], skus: string[]) {
  const owned = { OR: [{ team_id: merchantTeamId }, { merchant_team_id: merchantTeamId }] };
  const include = {
    components: { where: { kind: 'VIRTUAL_BUNDLE' as const }, include: { component: true }, orderBy: { created_at: 'asc' as const } },
  };
  return client.product.findMany({
    where: { AND: [owned, { OR: [{ id: { in: productIds } }, { sku: { in: skus } }] }] },
    include,
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

/** The fos order of a channel order (its id). */
export function orderIdByRemote(client: Client, shopId: string, remoteId: string) {
  return client.order.findUnique({ where: { shop_id_remote_id: { shop_id: shopId, remote_id: remoteId } }, select: { id: true } });
}

/** The fos order of a channel order. */
export function orderByRemote(client: Client, shopId: string, remoteId: string) {
  return client.order.findUnique({ where: { shop_id_remote_id: { shop_id: shopId, remote_id: remoteId } } });
}

export function orderStatus(client: Client, id: string) {
  return client.order.findUniqueOrThrow({ where: { id }, select: { status: true } });
}

export function orderConfig(client: Client, id: string) {
  return client.order.findUniqueOrThrow({ where: { id }, select: { config: true } });
}

/** synced_at set to `now`; the order. */
export function markOrderSynced(client: Client, id: string, now: Date) {
  return client.order.update({ where: { id }, data: { synced_at: now } });
}

/** The order PAID, nothing outstanding. */
export function markOrderPaid(tx: TxClient, id: string) {
  return tx.order.update({ where: { id }, data: { payment_status: 'PAID', total_outstanding: 0 } });
}

/** The order's active AWAITING_PAYMENT holds lifted; the count lifted. */
export function liftPaymentHolds(tx: TxClient, orderId: string) {
  return tx.orderFulfillmentHold.updateMany({
    where: { order_id: orderId, active: true, reason: 'AWAITING_PAYMENT' },
    data: { active: false },
  });
}
