import { newId } from '../../../db/ids.js';
import { boundStatements, portableStatementsOf, sqliteArg } from '../../../db/statements.js';
import type { Prisma, TxClient } from '../../../db/types.js';
import { insertValues, jsonRowsSql, type ValuesColumn } from '../../../db/values.js';
import type { Bucket, MovementKind } from '../../../contract/inventory-enums.js';

// The ledger's movement rows, one writer for the per-level ledger (ledger.ts) and the bulk one
// (ledger-bulk.ts), written as the Prisma model's createMany would: the id a UUIDv7 made here,
// as the client makes it (@default(uuid(7))), created_at given by the caller. How, by where:
//  - a transaction() on SQLite: multi-row VALUES statements of 100 and 10 rows and the rest (values.ts
//    insertValues; measured against one INSERT … SELECT FROM json_each, docs/performance.md);
//  - a transaction() on PostgreSQL: ONE INSERT whose rows are one JSON parameter (no
//    per-parameter processing in Prisma's raw query however many rows);
//  - any other transaction (a bare $transaction): VALUES of up to 500 rows through Prisma's raw query.

export interface MovementRow {
  product_id: string;
  sku: string | null;
  warehouse_id: string;
  bucket: Bucket;
  delta: number;
  kind: MovementKind;
  reason: string | null;
  note: string | null;
  reference_type: string | null;
  reference_id: string | null;
  actor_key_id: string | null;
  lot_code: string | null;
  expiration_date: string | null;
  location_id: string | null;
  location_stock_id: string | null;
  work_order_id: string | null;
  created_at: Date;
}

const text = (name: keyof MovementRow | 'id', pg = 'TEXT'): ValuesColumn => ({ name, pg });

/** Every column written, in order: the id, then the row's fields. */
const COLUMNS: ValuesColumn[] = [
  text('id'),
  text('product_id'),
  text('sku'),
  text('warehouse_id'),
  text('bucket', '"InventoryBucket"'),
  text('delta', 'INTEGER'),
  text('kind', '"InventoryMovementKind"'),
  ...(['reason', 'note', 'reference_type', 'reference_id', 'actor_key_id', 'lot_code', 'expiration_date'] as const).map((n) => text(n)),
  ...(['location_id', 'location_stock_id', 'work_order_id'] as const).map((n) => text(n)),
  text('created_at', 'TIMESTAMP(3)'),
];
const FIELDS = COLUMNS.slice(1).map((c) => c.name as keyof MovementRow);
const BEFORE_CREATED = FIELDS.slice(0, -1);
const HEAD = `INSERT INTO "inventory_movements" (${COLUMNS.map((c) => `"${c.name}"`).join(', ')})`;

/** Rows per statement through Prisma: 18 values each, well inside both databases' limits on bound values. */
const CHUNK = 500;
const ROW = `(${COLUMNS.map(() => '?').join(', ')})`;

/**
 * The rows, each with a new id, in the given order (ids rise with it). `atCommit`: on PostgreSQL
 * the INSERT is sent with the transaction's COMMIT (statements.ts runAtCommit), for a caller that
 * holds hot row locks and reads no movement back in its transaction (the fulfill).
 */
export async function insertMovements(tx: TxClient, rows: readonly MovementRow[], opts: { atCommit?: boolean } = {}): Promise<void> {
  if (!rows.length) return;
  const st = boundStatements(tx);
  if (st?.dialect.provider === 'sqlite') {
    // Rows of one change share their created_at: convert each Date once, not per row.
    let last: Date | undefined;
    let at: unknown;
    const cells = rows.map((r) => {
      if (r.created_at !== last) at = sqliteArg((last = r.created_at));
      return [newId(), ...BEFORE_CREATED.map((f) => r[f]), at];
    });
    return insertValues(st, HEAD, cells);
  }
  if (st) {
    const sql = `${HEAD} ${jsonRowsSql('postgresql', COLUMNS)}`;
    const params = [JSON.stringify(rows.map((r) => [newId(), ...FIELDS.map((f) => r[f])]))];
    await (opts.atCommit && st.runAtCommit ? st.runAtCommit(sql, params) : st.run(sql, params));
    return;
  }
  const portable = portableStatementsOf(tx);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await portable.run(
      `${HEAD} VALUES ${chunk.map(() => ROW).join(', ')}`,
      chunk.flatMap((r) => [newId(), ...FIELDS.map((f) => r[f])]),
    );
  }
}

/** A few movement rows through Prisma's createMany (a move's parts; ids by the client's @default). */
export function createMovements(tx: TxClient, rows: Prisma.InventoryMovementCreateManyInput[]) {
  return tx.inventoryMovement.createMany({ data: rows });
}
