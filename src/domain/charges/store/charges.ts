import type { Db, Prisma, TxClient } from '../../../db/types.js';

// Charge rows through Prisma's client (issue 38): the lists and reads of both families, the
// manual charges' insert and compare-and-set update, and what a charge links to (the team's
// warehouse, location type, purchase order). The fulfill's and the events' inserts are
// prepared statements (statements.ts).

type Client = Db['prisma'] | TxClient;

/** One page of charges (pageArgs' window). */
export function findChargePage(client: Client, window: { where: Prisma.ChargeWhereInput; orderBy: never; skip: number; take: number }) {
  return client.charge.findMany(window);
}

/** A charge the fulfiller team billed. */
export function findFulfillerCharge(client: Client, teamId: string, id: string) {
  return client.charge.findFirst({ where: { id, fulfiller_team_id: teamId } });
}

/** A charge billed to the merchant team. */
export function findMerchantCharge(client: Client, teamId: string, id: string) {
  return client.charge.findFirst({ where: { id, merchant_team_id: teamId } });
}

export function findChargeById(tx: TxClient, id: string) {
  return tx.charge.findUniqueOrThrow({ where: { id } });
}

/** The charge an event's billing key made, if any. */
export function findChargeByKey(tx: TxClient, key: string) {
  return tx.charge.findUnique({ where: { billing_key: key } });
}

export function createCharge(tx: TxClient, data: Prisma.ChargeUncheckedCreateInput) {
  return tx.charge.create({ data });
}

/** Updates the charge if it is still as read (its updated_at); how many rows changed (0 or 1). */
export function updateChargeIfUnchanged(tx: TxClient, id: string, updatedAt: Date, data: Prisma.ChargeUncheckedUpdateManyInput) {
  return tx.charge.updateMany({ where: { id, updated_at: updatedAt }, data });
}

/** The team's warehouse (a storage charge copies its name). */
export function findTeamWarehouse(tx: TxClient, teamId: string, id: string) {
  return tx.warehouse.findFirst({ where: { id, team_id: teamId } });
}

/** The name of the team's warehouse (an ad-hoc charge's). */
export function findTeamWarehouseName(tx: TxClient, teamId: string, id: string) {
  return tx.warehouse.findFirst({ where: { id, team_id: teamId }, select: { name: true } });
}

export function findTeamLocationType(tx: TxClient, teamId: string, id: string) {
  return tx.locationType.findFirst({ where: { id, team_id: teamId } });
}

export function findTeamPurchaseOrder(tx: TxClient, teamId: string, id: string) {
  return tx.purchaseOrder.findFirst({ where: { id, team_id: teamId } });
}
