import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The fulfillment orders' reads and the accept's write (fulfillment-orders.ts), and the claim a
// fulfill makes for a caller without a lock (fulfill.ts): the rules (the state machine, what a
// refusal says) stay in those files.

type Client = Db['prisma'] | TxClient;

/** What a fulfillment order is presented with: its lines in created order and its order's fields. */
export const foInclude = {
  line_items: { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
  order: {
    select: {
      order_number: true,
      shop_id: true,
      shipping_address: true,
      customer_email: true,
      customer_name: true,
      customer_phone: true,
      status: true,
      fulfillment_status: true,
      priority: true,
      shipping_method: true,
    },
  },
} satisfies Prisma.FulfillmentOrderInclude;

export type FoRow = Prisma.FulfillmentOrderGetPayload<{ include: typeof foInclude }>;

/** One page of fulfillment orders (the page's where, order and window from pageArgs), presentable. */
export function findFulfillmentOrderRows(
  client: Client,
  args: { where: Prisma.FulfillmentOrderWhereInput; orderBy: never; skip: number; take: number },
): Promise<FoRow[]> {
  return client.fulfillmentOrder.findMany({ ...args, include: foInclude });
}

export function countFulfillmentOrderRows(client: Client, where: Prisma.FulfillmentOrderWhereInput) {
  return client.fulfillmentOrder.count({ where });
}

/** The ids of the team's totes of this name (or this id): the (team_id, name) index. */
export async function findToteIds(client: Client, teamId: string, tote: string): Promise<string[]> {
  const rows = await client.tote.findMany({ where: { team_id: teamId, OR: [{ name: tote }, { id: tote }] }, select: { id: true } });
  return rows.map((r) => r.id);
}

/** The team's fulfillment order, presentable. */
export function findFulfillmentOrderRow(client: Client, teamId: string, id: string): Promise<FoRow | null> {
  return client.fulfillmentOrder.findFirst({ where: { id, fulfiller_team_id: teamId }, include: foInclude });
}

/** The accept's compare-and-set: the team's PENDING fulfillment order -> ACCEPTED; the count changed (0 or 1). */
export async function acceptPendingFulfillmentOrder(client: Client, teamId: string, id: string): Promise<number> {
  const { count } = await client.fulfillmentOrder.updateMany({
    where: { id, fulfiller_team_id: teamId, status: 'PENDING' },
    data: { status: 'ACCEPTED', request_status: 'ACCEPTED' },
  });
  return count;
}

/** The fulfillment order of the team's package (null: no such package). */
export function findPackageFulfillmentOrderId(tx: TxClient, teamId: string, packageId: string) {
  return tx.package.findFirst({ where: { id: packageId, fulfiller_team_id: teamId }, select: { fulfillment_order_id: true } });
}

/** The team's fulfillment order locked by `owner` until `expiresAt`, when nobody holds a live lock on it. */
export async function lockIfFree(tx: TxClient, teamId: string, foId: string, owner: string, now: Date, expiresAt: Date) {
  await tx.fulfillmentOrder.updateMany({
    where: {
      id: foId,
      fulfiller_team_id: teamId,
      OR: [{ lock_owner: null }, { lock_expires_at: null }, { lock_expires_at: { lte: now } }],
    },
    data: { lock_owner: owner, lock_expires_at: expiresAt },
  });
}
