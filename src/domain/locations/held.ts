import type { TxClient } from '../../db/types.js';
import { isHeldLocation } from '../../contract/inventory-enums.js';
import { conflict } from '../errors.js';
import { damagedLocationOf, findHeldCandidate, insertDamagedLocation } from './store.js';

// Held stock (issue 34; docs/warehouses.md): units received or returned DAMAGED land in a DAMAGED
// location of the warehouse, never in the pickable bin a line names for its good units, so no
// pick, pick list or pack scan can reach them (bins.ts, picking/store.ts skip held types).

export interface HeldBin {
  id: string;
  name: string;
}

export const damagedLocationId = (warehouseId: string) => `damaged-${warehouseId}`;

/**
 * The warehouse's DAMAGED location: its first active one by walk order, else one named DAMAGED
 * created now under a fixed id (two receipts racing insert the same row once: insert-or-nothing).
 */
export async function ensureDamagedLocation(tx: TxClient, warehouseId: string): Promise<HeldBin> {
  const found = await damagedLocationOf(tx, warehouseId);
  if (found) return found;
  const id = damagedLocationId(warehouseId);
  await insertDamagedLocation(tx, id, warehouseId, new Date());
  const made = await findHeldCandidate(tx, id);
  if (made?.type === 'DAMAGED' && made.active) return made;
  // The fixed id exists but was retyped or deactivated, or another location took the name DAMAGED.
  throw conflict(
    'Damaged units need a DAMAGED location, and this warehouse has no active one (a location named DAMAGED is in the way): create one with type DAMAGED, e.g. fos locations create DMG-1 --type DAMAGED.',
    { warehouse_id: warehouseId },
  );
}

/**
 * Where damaged units of a line go: the bin it names when that bin is a held one (DAMAGED or
 * QUARANTINE), else the warehouse's DAMAGED location.
 */
export async function damagedBinFor(tx: TxClient, warehouseId: string, named: { id: string; name: string; type: string } | null) {
  if (named && isHeldLocation(named.type)) return { id: named.id, name: named.name, named: true };
  return { ...(await ensureDamagedLocation(tx, warehouseId)), named: false };
}
