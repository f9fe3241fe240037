import { v7 as uuidv7 } from 'uuid';
import { portableStatementsOf } from '../../../db/statements.js';
import type { TxClient } from '../../../db/types.js';
import type { Bucket, MovementKind } from '../../../contract/inventory-enums.js';

// The ledger's movement rows (ledger.ts), written as the Prisma model's createMany would: the id
// a UUIDv7 made here, as the client makes it (@default(uuid(7))), created_at given by the caller.

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

const COLUMNS = [
  'product_id',
  'sku',
  'warehouse_id',
  'bucket',
  'delta',
  'kind',
  'reason',
  'note',
  'reference_type',
  'reference_id',
  'actor_key_id',
  'lot_code',
  'expiration_date',
  'location_id',
  'location_stock_id',
  'work_order_id',
  'created_at',
] as const satisfies ReadonlyArray<keyof MovementRow>;

/** Rows per statement: 18 values each, well inside both databases' limits on bound values. */
const CHUNK = 500;
const ROW = `(${['?', ...COLUMNS.map(() => '?')].join(', ')})`;

/** The rows in one INSERT (per CHUNK rows). */
export async function insertMovements(tx: TxClient, rows: readonly MovementRow[]): Promise<void> {
  const st = portableStatementsOf(tx);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await st.run(
      `INSERT INTO "inventory_movements" ("id", ${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${chunk.map(() => ROW).join(', ')}`,
      chunk.flatMap((r) => [uuidv7(), ...COLUMNS.map((c) => r[c])]),
    );
  }
}
