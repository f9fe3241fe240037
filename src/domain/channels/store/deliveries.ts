import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The platforms' webhook deliveries (channel_deliveries): stored, their outcome written, the
// stale ones claimed again by a compare-and-set on updated_at, listed per shop (issue 38 item 4).
// Each function is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

export function insertDelivery(tx: TxClient, data: Prisma.ChannelDeliveryUncheckedCreateInput) {
  return tx.channelDelivery.create({ data });
}

export function updateDelivery(client: Client, id: string, data: Prisma.ChannelDeliveryUncheckedUpdateInput) {
  return client.channelDelivery.update({ where: { id }, data });
}

/** Up to `take` deliveries still RECEIVED and untouched since before `before`, oldest first. */
export function staleDeliveries(client: Client, before: Date, take: number) {
  return client.channelDelivery.findMany({
    where: { status: 'RECEIVED', updated_at: { lt: before } },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    take,
  });
}

/** Claims a RECEIVED delivery by moving its updated_at (compare-and-set on the value read); the count claimed. */
export function claimDelivery(client: Client, id: string, updatedAt: Date, now: Date) {
  return client.channelDelivery.updateMany({
    where: { id, status: 'RECEIVED', updated_at: updatedAt },
    data: { updated_at: now },
  });
}

/** One page of the shop's deliveries (of one status when given), newest first. */
export function deliveriesPage(client: Client, shopId: string, status: string | undefined, skip: number, take: number) {
  return client.channelDelivery.findMany({
    where: { shop_id: shopId, ...(status ? { status } : {}) },
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    skip,
    take,
  });
}

export function findDeliveryOfShop(client: Client, shopId: string, id: string) {
  return client.channelDelivery.findFirst({ where: { id, shop_id: shopId } });
}
