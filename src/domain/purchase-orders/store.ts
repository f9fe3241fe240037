import type { Provider, TxClient } from '../../db/types.js';
import { flag, jsonTable } from '../../db/values.js';

// The purchase orders' statements (issue 24 item 1): the bulk receipt's guarded UPDATE (receive-bulk.ts).

/** One row of raiseReceived: [purchase-order line id, units received, of which damaged]. */
export type ReceivedRow = [string, number, number];

/**
 * Raises each line's quantity_received (and quantity_damaged) in ONE UPDATE … FROM (VALUES …),
 * where it does not pass the quantity ordered unless `allowOver`; returns the lines it raised.
 */
export async function raiseReceived(tx: TxClient, provider: Provider, values: ReceivedRow[], allowOver: boolean, now: Date) {
  const cols = [
    { name: 'id', pg: 'TEXT' },
    { name: 'q', pg: 'INTEGER' },
    { name: 'd', pg: 'INTEGER' },
  ];
  return tx.$queryRaw<{ id: string; quantity_received: number }[]>`WITH ${jsonTable(provider, 'v', cols, values)}
      UPDATE "purchase_order_lines" SET "quantity_received" = "purchase_order_lines"."quantity_received" + v."q",
        "quantity_damaged" = "purchase_order_lines"."quantity_damaged" + v."d", "updated_at" = ${now}
      FROM "v" WHERE "purchase_order_lines"."id" = v."id"
        AND (${flag(provider, allowOver)} OR "purchase_order_lines"."quantity_received" <= "purchase_order_lines"."quantity" - v."q")
      RETURNING "purchase_order_lines"."id", "purchase_order_lines"."quantity_received"`;
}
