import { statementsOf } from '../../db/statements.js';
import type { Provider, TxClient } from '../../db/types.js';
import { jsonRowsSql } from '../../db/values.js';
import { OPEN_STATUSES, type PurchaseOrderRow } from './view.js';

// The purchase orders' statements (issue 24 item 1): the claim of an order (receive.ts) and the
// bulk receipt's guarded UPDATE (receive-bulk.ts), on the write paths' prepared statements, rows
// typed as Prisma reads them; the receipt's lines travel as one JSON parameter.

const OPEN_LIST = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * The team's order, if still open, with its updated_at set (a compare-and-set on its status that
 * also takes its row lock on PostgreSQL), and its lines; null when it is not the team's or not open.
 */
export async function claimOpen(tx: TxClient, provider: Provider, teamId: string, id: string, now: Date): Promise<PurchaseOrderRow | null> {
  const st = statementsOf(tx, provider);
  const [po] = await st.all<Omit<PurchaseOrderRow, 'lines'>>(
    `UPDATE "purchase_orders" SET "updated_at" = ? WHERE "id" = ? AND "team_id" = ? AND "status" IN (${OPEN_LIST}) RETURNING *`,
    [now, id, teamId],
  );
  if (!po) return null;
  const lines = await st.all<PurchaseOrderRow['lines'][number]>(`SELECT * FROM "purchase_order_lines" WHERE "purchase_order_id" = ?`, [id]);
  return { ...po, lines };
}

/** One row of raiseReceived: [purchase-order line id, units received, of which damaged]. */
export type ReceivedRow = [string, number, number];

/**
 * Raises each line's quantity_received (and quantity_damaged) in ONE UPDATE … FROM (rows), where
 * it does not pass the quantity ordered unless `allowOver`; returns the lines it raised.
 */
export async function raiseReceived(tx: TxClient, provider: Provider, values: ReceivedRow[], allowOver: boolean, now: Date) {
  const st = statementsOf(tx, provider);
  const cols = [
    { name: 'id', pg: 'TEXT' },
    { name: 'q', pg: 'INTEGER' },
    { name: 'd', pg: 'INTEGER' },
  ];
  const rows = await st.all<{ id: string; quantity_received: number }>(
    `WITH "v" AS (${jsonRowsSql(provider, cols)})
     UPDATE "purchase_order_lines" SET "quantity_received" = "purchase_order_lines"."quantity_received" + v."q",
       "quantity_damaged" = "purchase_order_lines"."quantity_damaged" + v."d", "updated_at" = ?
     FROM "v" WHERE "purchase_order_lines"."id" = v."id"
       AND (${allowOver ? 'TRUE' : 'FALSE'} OR "purchase_order_lines"."quantity_received" <= "purchase_order_lines"."quantity" - v."q")
     RETURNING "purchase_order_lines"."id", "purchase_order_lines"."quantity_received"`,
    [JSON.stringify(values), now],
  );
  return rows.map((r) => ({ id: r.id, quantity_received: st.dialect.int(r.quantity_received) }));
}
