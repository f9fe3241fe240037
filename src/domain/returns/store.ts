import type { TxClient } from '../../db/types.js';

// The returns' raw statements (issue 24, item 1); the rest of the area is Prisma's own queries.

/**
 * Reserves `quantity` more of an order line for a return, only while the line's returns stay
 * within what was fulfilled of it (the guard is in the WHERE, so racing returns cannot
 * over-return). Returns the rows changed: 1 when reserved, 0 when it would pass the fulfilled.
 */
export function reserveReturnedQuantity(tx: TxClient, lineId: string, quantity: number): Promise<number> {
  return tx.$executeRaw`UPDATE "order_line_items" SET "returned_quantity" = "returned_quantity" + ${quantity}
        WHERE "id" = ${lineId} AND "returned_quantity" + ${quantity} <= "total_quantity" - "removed_quantity" - "remaining_quantity"`;
}
