import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The packages' reads and writes through Prisma (packages.ts, package-view.ts): a package as the
// API shows it, a page of them, and PATCH's writes. A package's creation writes on the packing
// transaction's prepared statements (packages.ts, insertRows).

type Client = Db['prisma'] | TxClient;

/** What a package is read with: its lines in created order, its label, its fulfillment, its order's shop. */
export const packageInclude = {
  line_items: { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
  shipping_label: true,
  fulfillment: true,
  fulfillment_order: { select: { order_id: true, order: { select: { shop_id: true } } } },
} satisfies Prisma.PackageInclude;

/** The team's package with what it is read with; null when the team has none by that id. */
export function findTeamPackage(client: Client, teamId: string, id: string) {
  return client.package.findFirst({ where: { id, fulfiller_team_id: teamId }, include: packageInclude });
}

/** One page of packages (pageArgs' window) with what each is read with. */
export function findPackagePage(client: Client, window: { where: Prisma.PackageWhereInput; orderBy: never; skip: number; take: number }) {
  return client.package.findMany({ ...window, include: packageInclude });
}

/** What PATCH checks and keeps of the team's package before it writes; null when the team has none by that id. */
export function findPackageToUpdate(client: Client, teamId: string, id: string) {
  return client.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    select: { fulfillment_order_id: true, type: true, config: true, rate_strategy: true, rate_within_days: true },
  });
}

/** Writes the team's package if still PENDING (not fulfilled); the count written (0 or 1). */
export function updatePendingPackage(tx: TxClient, teamId: string, id: string, data: Prisma.PackageUpdateManyMutationInput) {
  return tx.package.updateMany({ where: { id, fulfiller_team_id: teamId, status: 'PENDING' }, data });
}

/** The package's lines as PATCH matches given lines to them: which fulfillment-order line and lot each packs. */
export function findPackageLineKeys(tx: TxClient, packageId: string) {
  return tx.packageLineItem.findMany({
    where: { package_id: packageId },
    select: { id: true, core_fulfillment_order_line_item_id: true, lot_code: true, expiration_date: true },
  });
}

/** Deletes the package's lines but those kept. */
export function deletePackageLinesExcept(tx: TxClient, packageId: string, keep: string[]) {
  return tx.packageLineItem.deleteMany({ where: { package_id: packageId, id: { notIn: keep } } });
}

export function updatePackageLine(tx: TxClient, id: string, data: Prisma.PackageLineItemUncheckedUpdateInput) {
  return tx.packageLineItem.update({ where: { id }, data });
}

export function insertPackageLine(tx: TxClient, data: Prisma.PackageLineItemUncheckedCreateInput) {
  return tx.packageLineItem.create({ data });
}

/** The package's totals over its lines (quantities, weight, customs value, hash). */
export function setPackageTotals(
  tx: TxClient,
  packageId: string,
  data: Pick<
    Prisma.PackageUncheckedUpdateInput,
    'total_item_quantity' | 'unique_line_item_count' | 'total_customs_value' | 'line_item_hash'
  >,
) {
  return tx.package.update({ where: { id: packageId }, data });
}
