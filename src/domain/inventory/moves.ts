import { randomUUID } from 'node:crypto';
import type { Db, TxClient } from '../../db/types.js';
import { invalid } from '../errors.js';
import { transaction } from '../../db/tx.js';
import { resolveLocation } from '../locations/index.js';
import { reachableTeamIds, type Caller } from '../products/index.js';
import { placeOnHand } from './bins.js';
import { levelFor, type LevelRef } from './ledger.js';
import { claimWarehouse } from '../warehouses/index.js';
import { resolveProducts, type ProductRef } from './products.js';
import { touchLevel } from './store/levels.js';
import { createMovements } from './store/movements.js';

// POST /v1/ops/inventory/moves: units from one bin to another of the same warehouse (issue 28).
// The warehouse level does not change, but its row is touched first: that UPDATE is the lock every
// bin change of the product queues behind (bins.ts), so a move never races a pick of the same
// units. Each part taken (bin, lot) is written as two MOVED on_hand movements, -q at the source
// row and +q at the destination row, so bins and levels both stay equal to their movements.

export interface MoveInput {
  warehouse_id: string;
  from_location: string;
  to_location: string;
  note?: string;
  lines: (ProductRef & { quantity: number; lot_code?: string })[];
}

export async function moveStock(db: Db, caller: Caller & { keyId: string }, input: MoveInput) {
  return transaction(db, async (tx) => {
    const warehouse = await claimWarehouse(tx, input.warehouse_id, caller.teamId);
    const from = await resolveLocation(tx, caller.teamId, input.from_location, warehouse.id, 'from_location');
    const to = await resolveLocation(tx, caller.teamId, input.to_location, warehouse.id, 'to_location');
    if (from.id === to.id) throw invalid('to_location', 'must differ from from_location');
    if (!to.active) throw invalid('to_location', `location ${to.name} is inactive`);
    const products = await resolveProducts(tx, await reachableTeamIds(tx, caller), input.lines);
    const id = randomUUID();
    const now = new Date();
    const info = { kind: 'MOVED' as const, note: input.note ?? null, reference_type: 'move', reference_id: id, actor_key_id: caller.keyId };
    const levels: LevelRef[] = [];
    for (const p of products) levels.push(await levelFor(tx, p.id, warehouse.id));
    const lines = [];
    // Levels locked in id order, as everywhere, so two moves never wait on each other in a cycle.
    for (const i of products.map((_, i) => i).sort((a, b) => (levels[a].id < levels[b].id ? -1 : 1))) {
      const p = products[i];
      const line = input.lines[i];
      await lockLevel(tx, levels[i].id);
      const out = await placeOnHand(
        tx,
        { product_id: p.id, warehouse_id: warehouse.id, sku: p.sku },
        -line.quantity,
        { location_id: from.id, lot_code: line.lot_code ?? null },
        null,
      );
      const rows = [];
      for (const part of out) {
        const into = await placeOnHand(
          tx,
          { product_id: p.id, warehouse_id: warehouse.id },
          -part.delta,
          { location_id: to.id, lot_code: part.lot_code, expiration_date: part.expiration_date },
          null,
        );
        for (const bin of [part, ...into]) {
          rows.push({
            ...info,
            product_id: p.id,
            sku: p.sku,
            warehouse_id: warehouse.id,
            bucket: 'on_hand' as const,
            delta: bin.delta,
            lot_code: bin.lot_code,
            expiration_date: bin.expiration_date,
            location_id: bin.location_id,
            location_stock_id: bin.location_stock_id,
            created_at: now,
          });
        }
      }
      await createMovements(tx, rows);
      lines[i] = {
        product_id: p.id,
        sku: p.sku,
        quantity: line.quantity,
        lots: out.map((o) => ({ lot_code: o.lot_code, expiration_date: o.expiration_date, quantity: -o.delta })),
      };
    }
    return {
      id,
      warehouse_id: warehouse.id,
      from_location_id: from.id,
      from_location_name: from.name,
      to_location_id: to.id,
      to_location_name: to.name,
      note: input.note ?? null,
      actor_key_id: caller.keyId,
      created_at: now,
      lines,
    };
  });
}

/** Takes the level's row lock (PostgreSQL) without changing it: bin changes of its product queue behind it. */
export async function lockLevel(tx: TxClient, levelId: string) {
  await touchLevel(tx, levelId);
}
