import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The draft orders' reads and writes (drafts.ts, convert.ts): a draft always comes with its lines
// in the order they were added. What a draft may hold, and its conversion, stay in those files.

type Client = Db['prisma'] | TxClient;

const WITH_LINES = { line_items: { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] } } satisfies Prisma.DraftOrderInclude;

/** The team's order with this number (its id), if any. */
export function findOrderIdByNumber(client: Client, teamId: string, orderNumber: string) {
  return client.order.findFirst({ where: { fulfiller_team_id: teamId, order_number: orderNumber }, select: { id: true } });
}

/** The draft with its lines, returned with them. */
export function insertDraft(
  client: Client,
  data: Omit<Prisma.DraftOrderUncheckedCreateInput, 'line_items'>,
  lines: Prisma.DraftOrderLineItemUncheckedCreateWithoutDraft_orderInput[],
) {
  return client.draftOrder.create({ data: { ...data, line_items: { create: lines } }, include: WITH_LINES });
}

export function findTeamDraft(client: Client, teamId: string, id: string) {
  return client.draftOrder.findFirst({ where: { id, fulfiller_team_id: teamId }, include: WITH_LINES });
}

/** One page of drafts (pageArgs' window) with their lines. */
export function findDraftPage(client: Client, window: { where: Prisma.DraftOrderWhereInput; orderBy: never; skip: number; take: number }) {
  return client.draftOrder.findMany({ ...window, include: WITH_LINES });
}

export function findShops(client: Client, ids: string[]) {
  return client.shop.findMany({ where: { id: { in: ids } } });
}

/** Sets the team's draft CONVERTED while it is OPEN (compare-and-set); the count. */
export async function claimOpenDraft(tx: TxClient, teamId: string, id: string): Promise<number> {
  const claimed = await tx.draftOrder.updateMany({
    where: { id, fulfiller_team_id: teamId, status: 'OPEN' },
    data: { status: 'CONVERTED' },
  });
  return claimed.count;
}

export function findDraftOrderId(tx: TxClient, id: string) {
  return tx.draftOrder.findUnique({ where: { id }, select: { order_id: true } });
}

/** Links the draft to the order it became. */
export function setDraftOrder(tx: TxClient, id: string, orderId: string) {
  return tx.draftOrder.update({ where: { id }, data: { order_id: orderId } });
}
