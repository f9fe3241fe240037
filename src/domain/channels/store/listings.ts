import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The listings a sync imports (sync.ts; issue 38 item 4): the merchant's products by SKU and the
// shop's listing variants linked to them. Each function is one statement on the client given.

type Client = Db['prisma'] | TxClient;

/** The merchant's products (id and SKU) of these SKUs, oldest first. */
export function merchantProductsBySku(client: Client, merchantTeamId: string, skus: string[]) {
  return client.product.findMany({
    where: { sku: { in: skus }, OR: [{ team_id: merchantTeamId }, { merchant_team_id: merchantTeamId }] },
    select: { id: true, sku: true },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

/** The shop's listing variant of that platform id, created or updated with `data`. */
export function saveListingVariant(
  client: Client,
  shopId: string,
  remoteId: string,
  data: Prisma.ProductListingVariantUncheckedCreateInput,
) {
  return client.productListingVariant.upsert({
    where: { shop_id_remote_id: { shop_id: shopId, remote_id: remoteId } },
    create: data,
    update: data,
  });
}
