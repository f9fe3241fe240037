import type { Db, Prisma, TxClient } from '../../db/types.js';

// The vendors area's data access (issue 38 item 4): vendors and their product links, through
// Prisma. The rules (whose products may be linked, the components rule for product_ids) stay in
// vendors.ts; each function here is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

/** A vendor as presented: its linked products' ids, names, SKUs and images. */
const vendorInclude = {
  products: { include: { product: { select: { id: true, name: true, sku: true, image_url: true } } } },
} as const;

/** One page of vendors (pageArgs' window), as presented. */
export function findVendorPage(client: Client, window: { where: Prisma.VendorWhereInput; orderBy: never; skip: number; take: number }) {
  return client.vendor.findMany({ ...window, include: vendorInclude });
}

export function findTeamVendor(client: Client, merchantTeamId: string, id: string) {
  return client.vendor.findFirst({ where: { id, merchant_team_id: merchantTeamId }, include: vendorInclude });
}

export function insertVendor(tx: TxClient, data: Prisma.VendorUncheckedCreateInput) {
  return tx.vendor.create({ data });
}

/** Updates the team's vendor (writing the row first serialises concurrent updates); the count changed. */
export function updateTeamVendor(tx: TxClient, merchantTeamId: string, id: string, data: Prisma.VendorUpdateManyMutationInput) {
  return tx.vendor.updateMany({ where: { id, merchant_team_id: merchantTeamId }, data });
}

/** Which of these ids are the team's products. */
export function findTeamProductIds(client: Client, teamId: string, ids: string[]) {
  return client.product.findMany({ where: { id: { in: ids }, team_id: teamId }, select: { id: true } });
}

/** Removes the vendor's links to products not among `keep`. */
export function deleteProductLinksExcept(client: Client, vendorId: string, keep: string[]) {
  return client.vendorProduct.deleteMany({ where: { vendor_id: vendorId, product_id: { notIn: keep } } });
}

export function findProductLinks(client: Client, vendorId: string) {
  return client.vendorProduct.findMany({ where: { vendor_id: vendorId }, select: { product_id: true } });
}

export function insertProductLinks(client: Client, vendorId: string, productIds: string[]) {
  return client.vendorProduct.createMany({ data: productIds.map((product_id) => ({ vendor_id: vendorId, product_id })) });
}
