import type { Db, TxClient } from '../../db/types.js';

// The names area's reads (issue 38 item 4): the human keys of records by id, each kind in one
// query. Which kinds are read, and how a refusal words them, stays in names.ts.

type Client = Db['prisma'] | TxClient;

export function findTeamNames(client: Client, ids: string[]) {
  return client.team.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export function findWarehouseNames(client: Client, ids: string[]) {
  return client.warehouse.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export function findProductKeys(client: Client, ids: string[]) {
  return client.product.findMany({ where: { id: { in: ids } }, select: { id: true, sku: true, name: true } });
}

/** The orders of these fulfillment orders. */
export function findFulfillmentOrderOrders(client: Client, ids: string[]) {
  return client.fulfillmentOrder.findMany({ where: { id: { in: ids } }, select: { id: true, order_id: true } });
}

export function findLocationTypeNames(client: Client, ids: string[]) {
  return client.locationType.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export function findLocationNames(client: Client, ids: string[]) {
  return client.location.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

export function findOrderNumbers(client: Client, ids: string[]) {
  return client.order.findMany({ where: { id: { in: ids } }, select: { id: true, order_number: true } });
}
