import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The shops' rows (issue 38 item 4): found in a principal's scope, listed, written with their
// connection (connections.ts), renamed and deleted; the failure counts their views show; and the
// two reads of other areas' tables a shop's rules need (a merchant's delegations, an order of the
// shop). Each function is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

/** A principal's scope of shops (shops.ts shopScope): its merchant team's, or its fulfiller team's. */
export type ShopScope = { merchant_team_id: string } | { fulfiller_team_id: string };

export function findShopInScope(client: Client, scope: ShopScope, id: string) {
  return client.shop.findFirst({ where: { id, ...scope } });
}

/** The shop's id when it is in the scope. */
export function shopIdInScope(client: Client, scope: ShopScope, id: string) {
  return client.shop.findFirst({ where: { id, ...scope }, select: { id: true } });
}

export function findShopOrThrow(client: Client, id: string) {
  return client.shop.findUniqueOrThrow({ where: { id } });
}

export function shopsByIds(client: Client, ids: string[]) {
  return client.shop.findMany({ where: { id: { in: ids } } });
}

/** The merchant team's shop of that name (its id). */
export function shopNamed(client: Client, merchantTeamId: string, name: string) {
  return client.shop.findFirst({ where: { merchant_team_id: merchantTeamId, name }, select: { id: true } });
}

/** One page of shops, oldest first (`take` rows from `skip`). */
export function shopsPage(client: Client, where: Prisma.ShopWhereInput, skip: number, take: number) {
  return client.shop.findMany({
    where,
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    skip,
    take,
  });
}

export function insertShopRow(tx: TxClient, data: Prisma.ShopUncheckedCreateInput) {
  return tx.shop.create({ data });
}

export function renameShop(tx: TxClient, id: string, name: string, slug: string) {
  return tx.shop.update({ where: { id }, data: { name, slug } });
}

/** The shop and its listing variants. */
export async function deleteShopRows(tx: TxClient, id: string) {
  await tx.productListingVariant.deleteMany({ where: { shop_id: id } });
  await tx.shop.delete({ where: { id } });
}

/** One order of the shop (its id), if any. */
export function anyOrderOfShop(client: Client, shopId: string) {
  return client.order.findFirst({ where: { shop_id: shopId }, select: { id: true } });
}

/** Up to two active delegations of the merchant team. */
export function activeDelegationsOf(client: Client, merchantTeamId: string) {
  return client.fulfillmentDelegation.findMany({ where: { merchant_team_id: merchantTeamId, active: true }, take: 2 });
}

/** FAILED deliveries per shop. */
export function failedDeliveryCounts(client: Client, shopIds: string[]) {
  return client.channelDelivery.groupBy({ by: ['shop_id'], where: { shop_id: { in: shopIds }, status: 'FAILED' }, _count: { _all: true } });
}

/** FAILED tracking pushes per shop. */
export function failedPushCounts(client: Client, shopIds: string[]) {
  return client.channelPush.groupBy({ by: ['shop_id'], where: { shop_id: { in: shopIds }, status: 'FAILED' }, _count: { _all: true } });
}
