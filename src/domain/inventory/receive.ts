import type { TxClient } from '../../db/types.js';
import { applyToLevel, levelFor, type MovementInfo } from './ledger.js';

// Stock arriving at a warehouse outside a purchase order (opening balances, the demo seed):
// on_hand rises by `quantity` with a RECEIVED movement, the level created when missing.

export interface Receipt {
  product_id: string;
  warehouse_id: string;
  quantity: number;
}

export async function receiveStock(tx: TxClient, r: Receipt, info: Omit<MovementInfo, 'kind'> = {}): Promise<void> {
  if (!Number.isInteger(r.quantity) || r.quantity <= 0)
    throw new Error(`receiveStock: quantity must be a positive integer, got ${r.quantity}`);
  const level = await levelFor(tx, r.product_id, r.warehouse_id);
  await applyToLevel(tx, level, { on_hand: r.quantity }, { ...info, kind: 'RECEIVED' });
}
