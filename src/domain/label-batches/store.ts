import type { Db, Prisma, TxClient } from '../../db/types.js';

// The label batches' data access (issue 38 item 4), through Prisma: the packages a batch labels,
// the batches and their items, and the runner's lease (a compare-and-set on lease_until). The
// rules (which packages, in which order; what an outcome is) stay in create.ts, run.ts, view.ts.

type Client = Db['prisma'] | TxClient;

/** What choosing a batch's packages reads of one. */
const packageSelect = { id: true, fulfillment_order_id: true, created_at: true } as const;

// Choosing the packages.

export function findTeamPackages(tx: TxClient, teamId: string, ids: string[]) {
  return tx.package.findMany({ where: { id: { in: ids }, fulfiller_team_id: teamId }, select: packageSelect });
}

/** The team's PENDING packages of these fulfillment orders. */
export function findOpenPackagesOf(tx: TxClient, teamId: string, foIds: string[]) {
  return tx.package.findMany({
    where: { fulfillment_order_id: { in: foIds }, fulfiller_team_id: teamId, status: 'PENDING' },
    select: packageSelect,
  });
}

export function teamSessionExists(tx: TxClient, teamId: string, sessionId: string) {
  return tx.pickingSession.findFirst({ where: { id: sessionId, team_id: teamId }, select: { id: true } });
}

export function findSessionOrderIds(tx: TxClient, teamId: string, sessionId: string) {
  return tx.fulfillmentOrder.findMany({ where: { picking_session_id: sessionId, fulfiller_team_id: teamId }, select: { id: true } });
}

/** The team's PENDING packages of the session or of these fulfillment orders. */
export function findOpenSessionPackages(tx: TxClient, teamId: string, sessionId: string, foIds: string[]) {
  return tx.package.findMany({
    where: {
      fulfiller_team_id: teamId,
      status: 'PENDING',
      OR: [{ picking_session_id: sessionId }, { fulfillment_order_id: { in: foIds } }],
    },
    select: packageSelect,
  });
}

/** The session's first pick scan per fulfillment order. */
export function firstScanPerOrder(tx: TxClient, sessionId: string) {
  return tx.pickScan.groupBy({ by: ['fulfillment_order_id'], where: { picking_session_id: sessionId }, _min: { created_at: true } });
}

// Batches and items.

/** The batch with one item per package, in this order. */
export async function insertBatch(tx: TxClient, data: Prisma.LabelBatchUncheckedCreateInput, packageIds: string[]) {
  const batch = await tx.labelBatch.create({ data, select: { id: true } });
  await tx.labelBatchItem.createMany({ data: packageIds.map((package_id, i) => ({ batch_id: batch.id, package_id, position: i + 1 })) });
  return batch;
}

export function findTeamBatch(client: Client, teamId: string, id: string) {
  return client.labelBatch.findFirst({ where: { id, team_id: teamId } });
}

export function findBatch(client: Client, id: string) {
  return client.labelBatch.findFirst({ where: { id } });
}

/** One page of batches (pageArgs' window). */
export function findBatchPage(client: Client, window: { where: Prisma.LabelBatchWhereInput; orderBy: never; skip: number; take: number }) {
  return client.labelBatch.findMany(window);
}

/** The batch's items in its order. */
export function findItems(client: Client, batchId: string) {
  return client.labelBatchItem.findMany({ where: { batch_id: batchId }, orderBy: { position: 'asc' } });
}

/** Items per batch and status, counted. */
export function countItemsByBatch(client: Client, batchIds: string[]) {
  return client.labelBatchItem.groupBy({ by: ['batch_id', 'status'], where: { batch_id: { in: batchIds } }, _count: { _all: true } });
}

/** The batch's items per status, counted. */
export function countItemsByStatus(tx: TxClient, batchId: string) {
  return tx.labelBatchItem.groupBy({ by: ['status'], where: { batch_id: batchId }, _count: { _all: true } });
}

export function countPendingItems(tx: TxClient, batchId: string) {
  return tx.labelBatchItem.count({ where: { batch_id: batchId, status: 'PENDING' } });
}

/** Up to `take` PENDING items not among `tried`, in the batch's order: their packages. */
export function findNextItems(client: Client, batchId: string, tried: string[], take: number) {
  return client.labelBatchItem.findMany({
    where: { batch_id: batchId, status: 'PENDING', package_id: { notIn: tried } },
    orderBy: { position: 'asc' },
    take,
    select: { package_id: true },
  });
}

/** Records the item's outcome if it is still PENDING. */
export function recordItem(client: Client, batchId: string, packageId: string, data: Prisma.LabelBatchItemUpdateManyMutationInput) {
  return client.labelBatchItem.updateMany({ where: { batch_id: batchId, package_id: packageId, status: 'PENDING' }, data });
}

/** COMPLETED, if still RUNNING (compare-and-set: once); the count changed. */
export function completeBatch(tx: TxClient, id: string, now: Date) {
  return tx.labelBatch.updateMany({ where: { id, status: 'RUNNING' }, data: { status: 'COMPLETED', completed_at: now } });
}

// The runner's lease.

/** Takes the RUNNING batch's lease if it ran out by `now` (compare-and-set); the count taken. */
export function takeLease(client: Client, id: string, now: Date, until: Date) {
  return client.labelBatch.updateMany({ where: { id, status: 'RUNNING', lease_until: { lte: now } }, data: { lease_until: until } });
}

/** Sets the RUNNING batch's lease end (renewed, or given up with `now`). */
export function setLease(client: Client, id: string, until: Date) {
  return client.labelBatch.updateMany({ where: { id, status: 'RUNNING' }, data: { lease_until: until } });
}

/** Up to five RUNNING batches whose lease ran out, longest out first. */
export function findDueBatches(client: Client, now: Date) {
  return client.labelBatch.findMany({
    where: { status: 'RUNNING', lease_until: { lte: now } },
    orderBy: { lease_until: 'asc' },
    take: 5,
    select: { id: true },
  });
}

// What labelling a package reads.

export function findPackageState(client: Client, teamId: string, id: string) {
  return client.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    select: { status: true, shipment_status: true, rate_strategy: true },
  });
}

export function findPackageLabel(client: Client, packageId: string) {
  return client.shippingLabel.findUnique({
    where: { package_id: packageId },
    select: { created_at: true, voided_at: true, tracking_code: true, carrier_id: true, service_id: true, price: true, currency: true },
  });
}
