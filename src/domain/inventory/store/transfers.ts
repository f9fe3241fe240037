import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The transfers' data access (issue 38 item 4), through Prisma: the transfer and its lines. The
// rules (what may ship, be received or cancelled, and the ledger changes) stay in transfers.ts.

type Client = Db['prisma'] | TxClient;
type PageWindow = { where: Prisma.InventoryTransferWhereInput; orderBy: never; skip: number; take: number };

/** The transfer with its lines, returned with them. */
export function insertTransfer(
  tx: TxClient,
  data: Omit<Prisma.InventoryTransferUncheckedCreateInput, 'lines'>,
  lines: Prisma.InventoryTransferLineUncheckedCreateWithoutTransferInput[],
) {
  return tx.inventoryTransfer.create({ data: { ...data, lines: { create: lines } }, include: { lines: true } });
}

/** Writes the team's transfer's updated_at while its status is one of `open` (compare-and-set); the count. */
export function touchOpenTransfer(tx: TxClient, teamId: string, id: string, open: Prisma.InventoryTransferWhereInput['status'], now: Date) {
  return tx.inventoryTransfer.updateMany({ where: { id, team_id: teamId, status: open }, data: { updated_at: now } });
}

/** The team's transfer with its lines. */
export function findTeamTransfer(client: Client, teamId: string, id: string) {
  return client.inventoryTransfer.findFirst({ where: { id, team_id: teamId }, include: { lines: true } });
}

/** One page of transfers (pageArgs' window) with their lines. */
export function findTransferPage(client: Client, window: PageWindow) {
  return client.inventoryTransfer.findMany({ ...window, include: { lines: true } });
}

/** Sets the transfer's status (and dates); the transfer with its lines. */
export function updateTransfer(tx: TxClient, id: string, data: Prisma.InventoryTransferUpdateInput) {
  return tx.inventoryTransfer.update({ where: { id }, data, include: { lines: true } });
}

/**
 * Receives `quantity` of a transfer line (`damaged` of them damaged) unless that passes what the
 * line carries (the guard in the WHERE); the count changed.
 */
export function receiveTransferLine(tx: TxClient, line: { id: string; quantity: number }, quantity: number, damaged: number) {
  return tx.inventoryTransferLine.updateMany({
    where: { id: line.id, quantity_received: { lte: line.quantity - quantity } },
    data: { quantity_received: { increment: quantity }, quantity_damaged: { increment: damaged } },
  });
}

export function findTransferLine(tx: TxClient, id: string) {
  return tx.inventoryTransferLine.findUniqueOrThrow({ where: { id } });
}

export function findTransferLines(tx: TxClient, transferId: string) {
  return tx.inventoryTransferLine.findMany({ where: { transfer_id: transferId } });
}
