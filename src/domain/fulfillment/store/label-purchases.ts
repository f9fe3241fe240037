import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The label purchases' data access (issue 38): the claim rows of a platform purchase
// (carriers/purchases.ts, labels.ts), the package reads around buying and attaching a label, and
// the attach's settling of a claim and replacing of a voided label (label-attach.ts). The rules
// (claim-before-call, leases, when to refund) stay in those files.

type Client = Db['prisma'] | TxClient;

export function insertLabelPurchase(tx: TxClient, data: Prisma.LabelPurchaseUncheckedCreateInput) {
  return tx.labelPurchase.create({ data });
}

/** The purchase still open for the package (active_package_id is unique). */
export function findOpenPurchase(client: Client, packageId: string) {
  return client.labelPurchase.findUnique({ where: { active_package_id: packageId } });
}

/** Open purchases whose lease ran out, oldest lease first (at most 20). */
export function findDuePurchases(client: Client, now: Date) {
  return client.labelPurchase.findMany({
    where: { state: 'CLAIMED', lease_until: { lte: now } },
    take: 20,
    orderBy: { lease_until: 'asc' },
  });
}

/** A still CLAIMED purchase abandoned (the package freed for another purchase). */
export async function abandonPurchase(client: Client, id: string, message: string) {
  await client.labelPurchase.updateMany({
    where: { id, state: 'CLAIMED' },
    data: { state: 'ABANDONED', active_package_id: null, error_message: message },
  });
}

/** A still CLAIMED purchase's lease set to `leaseUntil`. */
export async function setPurchaseLease(client: Client, id: string, leaseUntil: Date) {
  await client.labelPurchase.updateMany({ where: { id, state: 'CLAIMED' }, data: { lease_until: leaseUntil } });
}

/** Compare-and-set on a CLAIMED purchase's lease (`was` -> `leaseUntil`); the count changed (0 or 1). */
export async function renewPurchaseLease(client: Client, id: string, was: Date, leaseUntil: Date): Promise<number> {
  const { count } = await client.labelPurchase.updateMany({
    where: { id, state: 'CLAIMED', lease_until: was },
    data: { lease_until: leaseUntil },
  });
  return count;
}

/** A CLAIMED or ABANDONED purchase set ATTACHED (once); the count changed (0 or 1). */
export async function markPurchaseAttached(tx: TxClient, id: string, remoteTransactionId: string | null): Promise<number> {
  const { count } = await tx.labelPurchase.updateMany({
    where: { id, state: { in: ['CLAIMED', 'ABANDONED'] } },
    data: { state: 'ATTACHED', active_package_id: null, remote_transaction_id: remoteTransactionId },
  });
  return count;
}

/** The team's package (whole). */
export function findTeamPackage(client: Client, teamId: string, id: string) {
  return client.package.findFirst({ where: { id, fulfiller_team_id: teamId } });
}

/** The team's package's status and shipment status. */
export function findTeamPackageState(client: Client, teamId: string, id: string) {
  return client.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    select: { id: true, status: true, shipment_status: true },
  });
}

/** The package's status, shipment status and label (to tell why a bought label was not attached). */
export function findPackageLabelState(client: Client, id: string) {
  return client.package.findUnique({
    where: { id },
    select: {
      status: true,
      shipment_status: true,
      shipping_label: { select: { remote_id: true, tracking_code: true, voided_at: true } },
    },
  });
}

/** A rating failure kept on the package, while it is PENDING and unlabelled. */
export async function recordRateError(client: Client, id: string, data: Prisma.InputJsonValue, message: string) {
  await client.package.updateMany({
    where: { id, status: 'PENDING', shipment_status: null },
    data: { rate_error_data: data, error_message: message },
  });
}

/** Deletes the package's voided label (the one a relabel replaces). */
export function deleteVoidedLabel(tx: TxClient, packageId: string) {
  return tx.shippingLabel.deleteMany({ where: { package_id: packageId, voided_at: { not: null } } });
}
