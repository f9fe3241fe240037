import type { Db, Prisma, TxClient } from '../../../db/types.js';

// Daily storage's reads through Prisma's client: the snapshots' list, what a day's charges need
// (delegations, location type names), a run and its billed total, and the warehouses the schedule
// and the operator's run walk (storage.ts holds the day's statements themselves).

/** A page of the team's snapshots (keyset paging args from pagination.ts). */
export function findSnapshotPage(db: Db, args: Prisma.StorageSnapshotFindManyArgs) {
  return db.prisma.storageSnapshot.findMany(args);
}

/** The fulfiller's delegations to these merchants, and these location types' names. */
export function findChargeContext(tx: TxClient, fulfillerTeamId: string, merchantIds: string[], typeIds: string[]) {
  return Promise.all([
    tx.fulfillmentDelegation.findMany({ where: { fulfiller_team_id: fulfillerTeamId, merchant_team_id: { in: merchantIds } } }),
    tx.locationType.findMany({ where: { id: { in: typeIds } }, select: { id: true, name: true } }),
  ]);
}

export function findRun(db: Db, warehouseId: string, date: string) {
  return db.prisma.storageRun.findUniqueOrThrow({ where: { warehouse_id_date: { warehouse_id: warehouseId, date } } });
}

/** The total of a run's charges (those its snapshots were billed to). */
export async function billedAmount(db: Db, runId: string): Promise<number> {
  const rows = await db.prisma.storageSnapshot.findMany({
    where: { run_id: runId, charge_id: { not: null } },
    select: { charge_id: true },
  });
  const sum = await db.prisma.charge.aggregate({ where: { id: { in: rows.map((r) => r.charge_id!) } }, _sum: { calculated_amount: true } });
  return sum._sum.calculated_amount ?? 0;
}

const WAREHOUSE = { id: true, team_id: true, name: true, time_zone: true, created_at: true } as const;

/** Warehouses by id (a team's, one of them, or all), with what a storage day needs. */
export function findWarehouses(db: Db, where: Prisma.WarehouseWhereInput = {}) {
  return db.prisma.warehouse.findMany({ where, select: WAREHOUSE, orderBy: { id: 'asc' } });
}

/** Each warehouse's last day taken. */
export async function lastRunDays(db: Db): Promise<Map<string, string | null>> {
  const latest = await db.prisma.storageRun.groupBy({ by: ['warehouse_id'], _max: { date: true } });
  return new Map(latest.map((r) => [r.warehouse_id, r._max.date]));
}
