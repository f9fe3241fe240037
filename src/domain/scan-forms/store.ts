import type { Db, Prisma, TxClient } from '../../db/types.js';

// The scan forms' data access (issue 38 item 4), through Prisma: the labels a form gathers, the
// packages' compare-and-set onto it, and the forms. The rules (which packages qualify, the
// warehouse's claim first) stay in create.ts.

type Client = Db['prisma'] | TxClient;

/**
 * The team's unvoided labels of a carrier bought in [from, to) for unmanifested packages of the
 * warehouse (only `packageIds`, when given): their package ids and carrier names.
 */
export function findManifestCandidates(
  tx: TxClient,
  q: { teamId: string; carrierId: string; warehouseId: string; from: Date; to: Date; packageIds?: string[] },
) {
  return tx.shippingLabel.findMany({
    where: {
      fulfiller_team_id: q.teamId,
      carrier_id: q.carrierId,
      voided_at: null,
      created_at: { gte: q.from, lt: q.to },
      package: { warehouse_id: q.warehouseId, scan_form_id: null },
      ...(q.packageIds ? { package_id: { in: q.packageIds } } : {}),
    },
    select: { package_id: true, carrier_name: true },
  });
}

/** Marks these packages' labels SCANNED. */
export function markLabelsScanned(tx: TxClient, packageIds: string[]) {
  return tx.shippingLabel.updateMany({ where: { package_id: { in: packageIds } }, data: { scan_status: 'SCANNED' } });
}

/** Puts these packages on the form where still unmanifested and labelled (compare-and-set); the count taken. */
export function takePackages(tx: TxClient, formId: string, packageIds: string[], now: Date) {
  return tx.package.updateMany({
    where: { id: { in: packageIds }, scan_form_id: null, shipment_status: { not: null } },
    data: { scan_form_id: formId, manifested_at: now },
  });
}

export function findFormPackageIds(tx: TxClient, formId: string) {
  return tx.package.findMany({ where: { scan_form_id: formId }, select: { id: true } });
}

export function insertScanForm(tx: TxClient, data: Prisma.ScanFormUncheckedCreateInput) {
  return tx.scanForm.create({ data });
}

/** One page of scan forms (pageArgs' window). */
export function findScanFormPage(client: Client, window: { where: Prisma.ScanFormWhereInput; orderBy: never; skip: number; take: number }) {
  return client.scanForm.findMany(window);
}

export function findTeamScanForm(client: Client, teamId: string, id: string) {
  return client.scanForm.findFirst({ where: { id, team_id: teamId } });
}
