import { transaction } from '../../db/tx.js';
import type { Db } from '../../db/types.js';
import { conflict } from '../errors.js';
import { applyToLevel } from '../inventory/index.js';
import { lockedLevelsFor } from '../inventory/index.js';
import type { Caller } from '../products/index.js';
import { enqueueForParties } from '../events/index.js';
import { claim } from './receive.js';
import { openOf, purchaseOrderView } from './view.js';
import { findWarehouseName, updateOrderStatus } from './store.js';

// Close ends a purchase order that will receive no more (what is still open leaves on_order);
// cancel withdraws one that received nothing (all of it leaves on_order). Both write RELEASED
// movements in the transaction that changes the status.

export async function closePurchaseOrder(db: Db, caller: Caller & { keyId: string }, id: string) {
  return finish(db, caller, id, 'CLOSED');
}

export async function cancelPurchaseOrder(db: Db, caller: Caller & { keyId: string }, id: string) {
  return finish(db, caller, id, 'CANCELLED');
}

async function finish(db: Db, caller: Caller & { keyId: string }, id: string, status: 'CLOSED' | 'CANCELLED') {
  return transaction(db, async (tx) => {
    const po = await claim(tx, db.provider, caller.teamId, id, status === 'CLOSED' ? 'closed' : 'cancelled');
    if (status === 'CANCELLED' && po.lines.some((l) => l.quantity_received > 0)) {
      throw conflict(`Purchase order ${id} has received units; close it instead of cancelling.`, { status: po.status });
    }
    // The levels locked in id order first (PostgreSQL), then released line by line.
    const productIds = po.lines.filter((l) => openOf(l)).map((l) => l.product_id);
    const levelOf = await lockedLevelsFor(tx, db.provider, [{ warehouseId: po.warehouse_id, productIds }]);
    for (const line of po.lines) {
      const open = openOf(line);
      if (!open) continue;
      const level = levelOf(po.warehouse_id, line.product_id);
      const ok = await applyToLevel(
        tx,
        level,
        { on_order: -open },
        {
          kind: 'RELEASED',
          reason: status,
          reference_type: 'purchase_order',
          reference_id: po.id,
          actor_key_id: caller.keyId,
        },
      );
      if (!ok) throw conflict(`On order of ${line.sku ?? line.product_id} is below what purchase order ${id} still expects.`);
    }
    const now = new Date();
    const updated = await updateOrderStatus(tx, po.id, { status, ...(status === 'CLOSED' ? { closed_at: now } : { cancelled_at: now }) });
    const warehouse = await findWarehouseName(tx, po.warehouse_id);
    const view = purchaseOrderView(updated, warehouse?.name);
    await enqueueForParties(tx, po, status === 'CLOSED' ? 'purchase_order.closed' : 'purchase_order.cancelled', view);
    return view;
  });
}
