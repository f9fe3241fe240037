import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The carriers' data access (issue 38): the operator's rate table (carrier-rates.ts), the
// integration a label was bought through (carriers/index.ts, carrier-webhooks.ts), a package's
// lines for its customs info (carriers/customs.ts) and the documents a platform issued
// (carriers/documents.ts). The rules stay in those files.

type Client = Db['prisma'] | TxClient;

/** One page of the team's rate table (the page's where, order and window from pageArgs). */
export function findCarrierRates(client: Client, args: Prisma.CarrierRateFindManyArgs) {
  return client.carrierRate.findMany(args);
}

export function insertCarrierRate(client: Client, data: Prisma.CarrierRateUncheckedCreateInput) {
  return client.carrierRate.create({ data });
}

/** Deletes the team's rate; the count deleted (0: not the team's or absent). */
export async function deleteCarrierRateRow(client: Client, teamId: string, id: string): Promise<number> {
  const { count } = await client.carrierRate.deleteMany({ where: { id, team_id: teamId } });
  return count;
}

/** The team's carrier integration. */
export function findTeamIntegration(client: Client, teamId: string, id: string) {
  return client.carrierIntegration.findFirst({ where: { id, team_id: teamId } });
}

/** A carrier integration by id (whichever team's: a platform's webhook names it). */
export function findIntegration(client: Client, id: string) {
  return client.carrierIntegration.findUnique({ where: { id } });
}

/** The package's lines, oldest first. */
export function findPackageLines(client: Client, packageId: string) {
  return client.packageLineItem.findMany({ where: { package_id: packageId }, orderBy: { created_at: 'asc' } });
}

/** Deletes every document kept for the package. */
export function deletePackageDocuments(tx: TxClient, packageId: string) {
  return tx.carrierDocument.deleteMany({ where: { package_id: packageId } });
}

export function insertCarrierDocument(tx: TxClient, data: Prisma.CarrierDocumentUncheckedCreateInput) {
  return tx.carrierDocument.create({ data });
}

/** The newest kept document of this kind for the team's package. */
export function findNewestDocument(client: Client, teamId: string, packageId: string, kind: 'LABEL' | 'COMMERCIAL_INVOICE') {
  return client.carrierDocument.findFirst({
    where: { package_id: packageId, team_id: teamId, kind },
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
  });
}
