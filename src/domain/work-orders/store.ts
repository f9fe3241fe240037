import type { Db, Prisma, TxClient } from '../../db/types.js';

// The work orders' data access (issue 38 item 4), through Prisma: the assembly and its
// components, the levels a build checks, the movements it reads back, and the work orders. The
// rules (what may be built, what is short, the ledger's order) stay in create.ts and view.ts.

type Client = Db['prisma'] | TxClient;

/** The product, if it belongs to one of these teams: what a build checks of it. */
export function findBuildProduct(tx: TxClient, teamIds: string[], id: string) {
  return tx.product.findFirst({
    where: { id, team_id: { in: teamIds } },
    select: { id: true, sku: true, type: true, team_id: true },
  });
}

/** The assembly's components with the units of each per build, by component id. */
export function findAssemblyComponents(tx: TxClient, productId: string) {
  return tx.productComponent.findMany({
    where: { parent_product_id: productId, kind: 'ASSEMBLY' },
    select: { component_quantity: true, component: { select: { id: true, sku: true } } },
    orderBy: { component_product_id: 'asc' },
  });
}

export function findLevelsIn(tx: TxClient, ids: string[]) {
  return tx.inventoryLevel.findMany({ where: { id: { in: ids } } });
}

/** The work order's CONSUMED on-hand movements, in id order. */
export function findConsumedMovements(tx: TxClient, workOrderId: string) {
  return tx.inventoryMovement.findMany({
    where: { work_order_id: workOrderId, bucket: 'on_hand', kind: 'CONSUMED' },
    select: { product_id: true, location_id: true, lot_code: true, expiration_date: true, delta: true },
    orderBy: { id: 'asc' },
  });
}

export function findLocationNames(client: Client, ids: string[]) {
  return client.location.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export function insertWorkOrder(tx: TxClient, data: Prisma.WorkOrderUncheckedCreateInput) {
  return tx.workOrder.create({ data });
}

/** One page of work orders (pageArgs' window). */
export function findWorkOrderPage(
  client: Client,
  window: { where: Prisma.WorkOrderWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.workOrder.findMany(window);
}

export function findTeamWorkOrder(client: Client, teamId: string, id: string) {
  return client.workOrder.findFirst({ where: { id, team_id: teamId } });
}
