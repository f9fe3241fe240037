import type { Db, TxClient } from '../../../db/types.js';

// The reads behind an order's responses (issue 38): the get-one order, its sales-channel pushes
// and the shops' names. The shapes stay in view.ts and orders.ts.

type Client = Db['prisma'] | TxClient;

/** The fulfiller's order with its holds and all its line items. */
export function findTeamOrder(client: Client, fulfillerTeamId: string, id: string) {
  return client.order.findFirst({
    where: { id, fulfiller_team_id: fulfillerTeamId },
    include: { holds: true, line_items: true },
  });
}

/** The order's tracking pushes to its shop, oldest first. */
export function findChannelPushes(client: Client, orderId: string) {
  return client.channelPush.findMany({ where: { order_id: orderId }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] });
}

/** What an order shows of these shops. */
export function findShopNames(client: Client, ids: string[]) {
  return client.shop.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, slug: true, shop_type: true } });
}
