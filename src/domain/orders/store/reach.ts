import type { Db, Prisma, TxClient } from '../../../db/types.js';

// What a fulfiller may put on a draft order, read (issue 38): its delegated merchants, their
// shops and products. The rules (which one, what is an error) stay in reach.ts.

type Client = Db['prisma'] | TxClient;

/** The fulfiller's active delegations (of this merchant, when given) with their merchant team: the two oldest. */
export function findActiveDelegations(client: Client, fulfillerTeamId: string, merchantTeamId?: string) {
  return client.fulfillmentDelegation.findMany({
    where: { fulfiller_team_id: fulfillerTeamId, active: true, ...(merchantTeamId ? { merchant_team_id: merchantTeamId } : {}) },
    include: { merchant_team: true },
    orderBy: { created_at: 'asc' },
    take: 2,
  });
}

export function findMerchantShop(client: Client, merchantTeamId: string, id: string) {
  return client.shop.findFirst({ where: { id, merchant_team_id: merchantTeamId } });
}

export function findShopBySlug(client: Client, merchantTeamId: string, slug: string) {
  return client.shop.findUnique({ where: { merchant_team_id_slug: { merchant_team_id: merchantTeamId, slug } } });
}

/** The shop, returned; fails on the merchant's unique slug when created concurrently. */
export function insertShop(client: Client, data: Prisma.ShopUncheckedCreateInput) {
  return client.shop.create({ data });
}

const PRODUCT = { id: true, name: true, sku: true, image_url: true, created_at: true } as const;
const owned = (merchantTeamId: string) => ({ OR: [{ team_id: merchantTeamId }, { merchant_team_id: merchantTeamId }] });

/** The merchant's products among these ids. */
export function findMerchantProducts(client: Client, merchantTeamId: string, ids: string[]) {
  return client.product.findMany({ where: { id: { in: ids }, ...owned(merchantTeamId) }, select: PRODUCT });
}

/** The merchant's products with these SKUs, oldest first. */
export function findMerchantProductsBySku(client: Client, merchantTeamId: string, skus: string[]) {
  return client.product.findMany({
    where: { sku: { in: skus }, ...owned(merchantTeamId) },
    select: PRODUCT,
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}
