import type { Db, TxClient } from '../../db/types.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { namedFulfillmentOrder } from '../names/index.js';
import { once, sweepOldAnswers, type Answer } from '../idempotency/index.js';
import { assertNoActiveHold } from '../orders/index.js';
import { boxOf, type BoxView, type ScanView, scanView } from './pack-box.js';
import { activeLock, CLOSED_FO } from './fulfillment-orders.js';
import { lockHeld } from './locks.js';
import { packingLines } from './packing.js';
import { transaction } from '../../db/tx.js';
import { checkLot, findProducts, resolveTote } from './pack-checks.js';
import { claimBoxRow } from './store/packing-checks.js';
import { findTeamFulfillmentOrder } from './store/fo-state.js';
import { addShortQuantity, deleteOpenScan, findScanPackage, insertPackScan } from './store/pack-scans.js';

// Packing that checks (issue 28 item 5; docs/floor.md "Packing that checks"). A packer scans units
// into the open box of a fulfillment order; each scan is checked against what the order still
// needs (unfulfilled, minus units in other open packages, minus units already scanned), then
// `pack` (pack.ts) turns the scans into a package. Every write takes the fulfillment order's row
// first (a compare-and-set UPDATE that also refuses closed orders, holds and foreign locks), so
// scans, undos and packs of one order are serialised and the checks read current figures.

/** Who scans: the lock owner the station names, and the person when a user principal acts. */
export interface Packer {
  owner?: string | null;
  userId?: string | null;
  userName?: string | null;
}

export interface ScanInput {
  barcode: string;
  quantity?: number;
  lot_code?: string;
  tote?: string;
  short?: boolean;
  lock_owner?: string;
}

export interface ClaimedBox {
  id: string;
  order_id: string;
  warehouse_id: string;
  tote_id: string | null;
}

/** The first statement of a packing write: the order's row, if it can be packed by `owner` now. */
export async function claimBox(tx: TxClient, teamId: string, foId: string, owner: string | null, start: boolean): Promise<ClaimedBox> {
  const now = new Date();
  const row = await claimBoxRow(tx, teamId, foId, owner, start, now, CLOSED_FO);
  if (row) return row;
  return explainRefusal(tx, teamId, foId, owner, now);
}

/** Why the claim matched nothing: 404, closed, the hold (named), or the lock's holder. */
export async function explainRefusal(tx: TxClient, teamId: string, foId: string, owner: string | null, now: Date): Promise<never> {
  const fo = await findTeamFulfillmentOrder(tx, teamId, foId, { status: true, order_id: true, lock_owner: true, lock_expires_at: true });
  if (!fo) throw notFound('Fulfillment order', foId);
  if (CLOSED_FO.includes(fo.status)) {
    const named = await namedFulfillmentOrder(tx, foId);
    throw conflict(`${named} is ${fo.status}; nothing can be packed.`, { fulfillment_order_status: fo.status });
  }
  await assertNoActiveHold(tx, fo.order_id);
  const lock = activeLock(fo, now);
  if (lock && lock.lock_owner !== owner) throw await lockHeld(tx, foId, lock);
  throw conflict(`Fulfillment order ${foId} changed while it was being packed; try again.`);
}

const ownerOf = (input: { lock_owner?: string }, packer: Packer) => input.lock_owner ?? packer.owner ?? packer.userName ?? null;

/** A refusal that tells the station what the box still needs. */
const refused = (kind: 'conflict' | 'unprocessable', message: string, box: BoxView) =>
  new DomainError(kind, message, { expected: box.remaining, remaining: box.remaining, scanned: box.scanned });

/** POST …/pack-scans: checks one scan and adds it to the box. Idempotent with a key. */
export async function addPackScan(
  db: Db,
  teamId: string,
  foId: string,
  input: ScanInput,
  packer: Packer = {},
  idempotencyKey?: string,
): Promise<Answer<BoxView & { scan: ScanView }>> {
  const scope = idempotencyKey ? { teamId, key: idempotencyKey, operation: 'createPackScan', body: { foId, ...input } } : undefined;
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) => once(tx, scope, 200, () => scanInto(tx, teamId, foId, input, packer)));
}

async function scanInto(tx: TxClient, teamId: string, foId: string, input: ScanInput, packer: Packer) {
  const fo = await claimBox(tx, teamId, foId, ownerOf(input, packer), true);
  const quantity = input.quantity ?? 1;
  const before = await boxOf(tx, fo);
  const products = await findProducts(tx, teamId, input.barcode);
  if (!products.length) throw refused('unprocessable', `No product has the barcode or SKU "${input.barcode}".`, before);
  const lines = await packingLines(tx, fo.id);
  const product = products.find((p) => lines.some((l) => l.product_id === p.id));
  if (!product) {
    const p = products[0];
    throw refused('conflict', `${p.sku ?? p.name} is not in this order: it does not go in this box.`, before);
  }
  // The line of that product with the most room takes the units.
  const rooms = before.lines.filter((l) => l.product_id === product.id).sort((a, b) => b.remaining - a.remaining);
  const line = rooms[0];
  if (!line || line.remaining < quantity) {
    const left = rooms.reduce((n, l) => n + l.remaining, 0);
    throw refused(
      'conflict',
      `${product.sku ?? product.name}: ${left} more can go in this box (${before.lines
        .filter((l) => l.product_id === product.id)
        .reduce((n, l) => n + l.scanned, 0)} already scanned), ${quantity} scanned.`,
      before,
    );
  }
  if (input.short) return recordShort(tx, fo, line, product, quantity, packer);
  const lot = await checkLot(tx, fo.warehouse_id, product, input.lot_code, quantity + scannedOfLot(before, product.id, input.lot_code));
  if (lot.refusal) throw refused('conflict', lot.refusal, before);
  const toteId = input.tote ? await resolveTote(tx, teamId, fo.tote_id, input.tote) : fo.tote_id;
  const scan = await insertPackScan(tx, {
    fulfillment_order_id: fo.id,
    fulfiller_team_id: teamId,
    fo_line_item_id: line.line_id,
    product_id: product.id,
    sku: product.sku,
    lot_code: input.lot_code ?? null,
    expiration_date: lot.expiration_date,
    quantity,
    tote_id: toteId,
    user_id: packer.userId ?? null,
    user_name: packer.userName ?? null,
  });
  return { scan: scanView(scan), ...(await boxOf(tx, fo)) };
}

/**
 * A short pack scan: `quantity` units of the line are not there. They go on the line's
 * short_quantity (under the order's row claim, so the box's figures are current): the box stops
 * asking for them, and they never ship on this fulfillment order (fulfill refuses a package
 * holding them) until the lead splits them off.
 */
async function recordShort(
  tx: TxClient,
  fo: ClaimedBox,
  line: BoxView['lines'][number],
  product: { id: string; sku: string | null },
  quantity: number,
  packer: Packer,
) {
  await addShortQuantity(tx, line.line_id, quantity);
  const scan: ScanView & { short: boolean } = {
    id: line.line_id,
    product_id: product.id,
    sku: product.sku,
    lot_code: null,
    expiration_date: null,
    quantity,
    tote_id: fo.tote_id,
    user_name: packer.userName ?? null,
    created_at: new Date(),
    short: true,
  };
  return { scan, ...(await boxOf(tx, fo)) };
}

const scannedOfLot = (box: BoxView, productId: string, lot: string | undefined) =>
  box.scanned.filter((s) => s.product_id === productId && s.lot_code === (lot ?? null)).reduce((n, s) => n + s.quantity, 0);

/** GET …/pack-scans: the open box (a read; claims nothing). */
export async function getPackBox(db: Db, teamId: string, foId: string): Promise<BoxView> {
  const fo = await findTeamFulfillmentOrder(db.prisma, teamId, foId, { id: true, order_id: true, warehouse_id: true, tote_id: true });
  if (!fo) throw notFound('Fulfillment order', foId);
  return boxOf(db.prisma, fo, db.provider);
}

/** DELETE …/pack-scans/{scan_id}: takes a scan out of the open box (undo). Packed scans stay (409). */
export async function deletePackScan(db: Db, teamId: string, foId: string, scanId: string, packer: Packer = {}): Promise<void> {
  await transaction(db, async (tx) => {
    const fo = await claimBox(tx, teamId, foId, packer.owner ?? packer.userName ?? null, false);
    const { count } = await deleteOpenScan(tx, fo.id, scanId);
    if (count) return;
    const scan = await findScanPackage(tx, fo.id, scanId);
    if (!scan) throw notFound('Pack scan', scanId);
    throw conflict(`Scan ${scanId} is already in package ${scan.package_id}; it cannot be undone.`, { package_id: scan.package_id });
  });
}
