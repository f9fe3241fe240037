import type { Db, TxClient } from '../../db/types.js';
import { conflict } from '../errors.js';
import { refusalNames } from '../names/index.js';
import { activeLock } from './fulfillment-orders.js';
import { lockHeld } from './locks.js';
import { findPackState, openScans, packScans, setPacked } from './store/pack-scans.js';
import type { Packer } from './pack-scans.js';
import type { LineInput } from './package-lines.js';
import { createPackage, type Caller, type PackageFields } from './packages.js';
import type { PackingFo } from './packing.js';

// POST …/fulfillment-orders/{id}/pack: closes the open box into a package with exactly the
// scanned lines (lots included), through the one package-creation path (createPackage: the
// order's claim, the line checks, the event). In its transaction, after the claim, the scans are
// consumed by a compare-and-set (package_id IS NULL): of two packs racing, the second waits on the
// order's row, then finds the box empty and answers 409 (docs/floor.md "Packing that checks").

export interface PackInput extends PackageFields {
  lock_owner?: string;
}

/** Scans grouped into package lines: one per fulfillment-order line, lot and expiry. */
function linesOf(scans: Array<{ fo_line_item_id: string; lot_code: string | null; expiration_date: string | null; quantity: number }>) {
  const lines = new Map<string, LineInput>();
  for (const s of scans) {
    const k = [s.fo_line_item_id, s.lot_code ?? '', s.expiration_date ?? ''].join('\u0000');
    const hit = lines.get(k);
    if (hit) hit.quantity += s.quantity;
    else
      lines.set(k, {
        core_fulfillment_order_line_item_id: s.fo_line_item_id,
        quantity: s.quantity,
        lot_code: s.lot_code,
        expiration_date: s.expiration_date ? `${s.expiration_date}T00:00:00.000Z` : null,
      });
  }
  return [...lines.values()];
}

async function consumeBox(tx: TxClient, fo: PackingFo, packageId: string, owner: string | null, packer: Packer): Promise<LineInput[]> {
  const now = new Date();
  const row = await findPackState(tx, fo.id);
  const lock = activeLock(row, now);
  if (lock && lock.lock_owner !== owner) throw await lockHeld(tx, fo.id, lock);
  const scans = await openScans(tx, fo.id);
  if (!scans.length) {
    const named = (await refusalNames(tx, { fulfillmentOrders: [fo.id] })).fulfillmentOrder(fo.id);
    throw conflict(`Nothing was scanned into the box of ${named}; scan items first (POST …/pack-scans).`);
  }
  const { count } = await packScans(
    tx,
    scans.map((s) => s.id),
    packageId,
  );
  if (count !== scans.length) throw conflict(`The box of fulfillment order ${fo.id} changed while it was being packed; try again.`);
  await setPacked(tx, fo.id, {
    packing_started_at: row.packing_started_at ?? now,
    packing_completed_at: now,
    ...(packer.userId ? { packed_by_user_id: packer.userId, packed_by_user_name: packer.userName ?? null } : {}),
  });
  return linesOf(scans);
}

/** Packs the box; with an idempotency key a retry answers the package the first call made (created false). */
export async function packBox(db: Db, caller: Caller, foId: string, input: PackInput, packer: Packer, key?: string, origin = '') {
  const { lock_owner, ...fields } = input;
  const owner = lock_owner ?? packer.owner ?? packer.userName ?? null;
  return createPackage(
    db,
    caller,
    { ...fields, fulfillment_order_id: foId, package_line_items: [], idempotency_key: key },
    origin,
    (tx, fo, packageId) => consumeBox(tx, fo, packageId, owner, packer),
  );
}
