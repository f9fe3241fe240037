import type { Db, Prisma, TxClient } from '../../../db/types.js';
import { ORDER_LIST_SELECT } from '../view.js';

// The order list's reads through Prisma (issue 38): the page when the driver's prepared one
// (common.ts orderListPage) does not serve it, and the merchants and shops its filters name. The
// rules (which filters, which path, names to ids) stay in list.ts and list-names.ts.

type Client = Db['prisma'] | TxClient;

/** One page of the fulfiller's orders (pageArgs' window), the list item's columns only. */
export function findOrderListPage(client: Client, window: { where: Prisma.OrderWhereInput; orderBy: never; skip: number; take: number }) {
  return client.order.findMany({ ...window, select: ORDER_LIST_SELECT });
}

/** The shops the fulfiller fulfills for that have one of these names. */
export function findShopsNamed(client: Client, fulfillerTeamId: string, names: string[]) {
  return client.shop.findMany({ where: { fulfiller_team_id: fulfillerTeamId, name: { in: names } }, select: { id: true, name: true } });
}

/** The merchant teams delegated to the fulfiller (active or not) that have one of these names. */
export async function findDelegatedMerchantsNamed(client: Client, fulfillerTeamId: string, names: string[]) {
  const rows = await client.fulfillmentDelegation.findMany({
    where: { fulfiller_team_id: fulfillerTeamId, merchant_team: { name: { in: names } } },
    select: { merchant_team: { select: { id: true, name: true } } },
  });
  return rows.map((r) => r.merchant_team);
}
