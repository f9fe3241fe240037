import type { Db, TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { conflict, notFound, unprocessable } from '../errors.js';
import { namedFulfillmentOrder } from '../names/index.js';
import { once, sweepOldAnswers, type Answer } from '../idempotency/index.js';
import { today } from '../clock.js';
import { computeWalk, type ToteShare, type WalkRow } from './pick-list.js';
import { openPicks, stockKey } from './open-picks.js';
import { touchSessionRow } from './store/sql.js';
import * as scans from './store/scans.js';

// Scan-checked picking (issue 28; docs/floor.md). A scan says "I took `quantity` of this item from
// this bin (and lot) into this tote", or with `short` "`quantity` units were not there". It is
// checked against the session's walk (pick-list.ts) computed inside the transaction, after the
// session's row is locked by its first UPDATE: scans of one session are serialised (PostgreSQL
// row lock, SQLite write lock), so two scanners on one row can never pick more than it needs.
// Nothing moves in the ledger: the units leave their bin at the fulfill, from the picked bin and
// lot (package lines carry them: picked-lines.ts). A short pick flags the fulfillment order
// (short_picked), marks the bin for a count (locations.count_requested_at) and leaves the line's
// units to other bins; the walk never sends that line back to that bin and lot.

export interface ScanInput {
  location: string;
  barcode: string;
  quantity?: number;
  tote?: string;
  lot_code?: string;
  short?: boolean;
  allow_expired?: boolean;
}

export interface Picker {
  teamId: string;
  user?: { userId: string; userName: string };
}

/** What the picker should do next, as every refusal carries it. */
const expectedOf = (row: WalkRow | undefined) =>
  row
    ? {
        location_name: row.location_name,
        sku: row.sku,
        lot_code: row.lot_code,
        quantity: row.remaining,
        tote_name: row.totes.find((t) => t.remaining > 0)?.tote_name ?? null,
      }
    : null;

const nextOf = (walk: WalkRow[]) => walk.find((r) => r.remaining > 0);

async function lockSession(tx: TxClient, teamId: string, sessionId: string) {
  const n = await touchSessionRow(tx, teamId, sessionId);
  if (n !== 1) throw notFound('Picking session', sessionId);
}

/** The bin (name or barcode) in one of the session's warehouses; 422 when unknown. */
async function resolveBin(tx: TxClient, teamId: string, warehouseIds: string[], code: string, expected: unknown) {
  const bins = await scans.findBinsByCode(tx, teamId, warehouseIds, code);
  if (!bins.length)
    throw unprocessable(`Unknown location "${code}": no bin of this session's warehouse has that name or barcode.`, { expected });
  return bins[0];
}

/** The product scanned: one of the walk's first (its barcode or SKU), else any the team reaches (422 when none). */
async function resolveProduct(tx: TxClient, teamId: string, walk: WalkRow[], code: string, expected: unknown) {
  const row = walk.find((r) => r.barcode === code) ?? walk.find((r) => r.sku === code);
  if (row) return { id: row.product_id, sku: row.sku };
  const found = await scans.findProductByCode(tx, teamId, code);
  if (!found) throw unprocessable(`Unknown barcode "${code}": no product has that barcode or SKU.`, { expected });
  return found;
}

type Refuse = (message: string) => never;

/** The row and tote a scan goes to, or a 409 naming what is expected. */
function targetOf(walk: WalkRow[], bin: { id: string; name: string }, sku: string, productId: string, input: ScanInput, refuse: Refuse) {
  const q = input.quantity ?? 1;
  const atBin = walk.filter((r) => r.location_id === bin.id);
  const open = atBin.filter((r) => r.remaining > 0);
  const ofProduct = atBin.filter((r) => r.product_id === productId);
  if (!open.length) {
    if (ofProduct.length) refuse(`More than needed: all ${sku} at ${bin.name} are picked.`);
    refuse(`Wrong bin: nothing to pick at ${bin.name}.`);
  }
  const rows = open.filter((r) => r.product_id === productId);
  if (!rows.length) {
    if (ofProduct.length) refuse(`More than needed: all ${sku} at ${bin.name} are picked.`);
    refuse(`Wrong item: ${sku} is not to be picked at ${bin.name}.`);
  }
  const lotRows = input.lot_code ? rows.filter((r) => r.lot_code === input.lot_code) : rows;
  if (!lotRows.length) refuse(`Wrong lot: ${input.lot_code} of ${sku} is not to be picked at ${bin.name}; take lot ${rows[0].lot_code}.`);
  const row = lotRows[0];
  const shares = row.totes.filter((t) => t.remaining > 0);
  const share = input.tote ? shares.find((t) => t.tote_name === input.tote || t.tote_id === input.tote) : shares[0];
  if (!share) refuse(`Wrong tote: tote ${input.tote} needs no ${sku} from ${bin.name}.`);
  if (q > share!.remaining) {
    refuse(
      `More than needed: tote ${share!.tote_name ?? share!.order_number} needs ${share!.remaining} of ${sku} from ${bin.name}, ${q} scanned.`,
    );
  }
  return { row, share: share! };
}

/** An expired lot scanned on purpose (allow_expired): its units replace planned units of the product for one tote. */
async function expiredTarget(
  tx: TxClient,
  walk: WalkRow[],
  stock: { on_hand: number; lot_code: string; location_id: string; product_id: string },
  sku: string,
  input: ScanInput,
  refuse: Refuse,
) {
  const q = input.quantity ?? 1;
  const shares = walk
    .filter((r) => r.product_id === stock.product_id)
    .flatMap((r) => r.totes.filter((t) => t.remaining > 0 && (!input.tote || t.tote_name === input.tote || t.tote_id === input.tote)));
  if (!shares.length) refuse(`More than needed: no tote needs ${sku}${input.tote ? ` in tote ${input.tote}` : ''}.`);
  const foId = shares[0].fulfillment_order_id;
  const need = shares.filter((t) => t.fulfillment_order_id === foId).reduce((n, t) => n + t.remaining, 0);
  const wh = await scans.findLocationWarehouse(tx, stock.location_id);
  const picked = (await openPicks(tx, [stock.product_id], [wh.warehouse_id]))
    .filter(
      (p) =>
        !p.short && stockKey(p.location_id, p.product_id, p.lot_code) === stockKey(stock.location_id, stock.product_id, stock.lot_code),
    )
    .reduce((n, p) => n + p.quantity, 0);
  if (q > Math.min(need, stock.on_hand - picked)) {
    refuse(`More than needed: ${Math.min(need, stock.on_hand - picked)} of ${sku} lot ${stock.lot_code} can be picked here, ${q} scanned.`);
  }
  return { row: null, share: { ...shares[0], remaining: need } };
}

/**
 * The fulfillment-order line a scan of this product for this order counts on: the first whose
 * unfulfilled units are not all scanned yet (an order may list one product on several lines).
 */
async function lineFor(tx: TxClient, foId: string, productId: string) {
  const [lines, scanned] = await Promise.all([scans.findProductLines(tx, foId, productId), scans.sumPickedByLine(tx, foId)]);
  const picked = new Map(scanned.map((g) => [g.fulfillment_order_line_item_id, g._sum.quantity ?? 0]));
  // Units fulfilled on a line used up its picks first (open-picks.ts): what is open is the rest.
  const open = (l: (typeof lines)[number]) => Math.max(0, (picked.get(l.id) ?? 0) - (l.quantity - l.remaining_quantity));
  return (lines.find((l) => l.remaining_quantity - open(l) > 0) ?? lines[0]).id;
}

/**
 * After a short pick: the units of the line no other bin can give (the walk's `short`) are
 * recorded short on the line (short_quantity, never lowered here): the pack station stops asking
 * for them and no package ships them (docs/fulfillment.md "Short units never ship").
 */
async function recordPickShortfall(
  tx: TxClient,
  lineId: string,
  foId: string,
  productId: string,
  short: Array<{ fulfillment_order_id: string; product_id: string; quantity: number }>,
) {
  const missing = short.filter((s) => s.fulfillment_order_id === foId && s.product_id === productId).reduce((n, s) => n + s.quantity, 0);
  if (!missing) return;
  const line = await scans.findLineShort(tx, lineId);
  const units = Math.min(line.remaining_quantity, Math.max(line.short_quantity, missing));
  if (units !== line.short_quantity) await scans.setLineShort(tx, lineId, units);
}

async function scanOnce(tx: TxClient, picker: Picker, sessionId: string, input: ScanInput) {
  await lockSession(tx, picker.teamId, sessionId);
  const { fos, walk } = await computeWalk(tx, picker.teamId, sessionId);
  const expected = expectedOf(nextOf(walk));
  const refuse: Refuse = (message) => {
    throw conflict(`${message}${expected ? ` Next: ${expected.location_name}, ${expected.sku ?? ''} ×${expected.quantity}.` : ''}`, {
      expected,
    });
  };
  if (!fos.length) refuse('This session has nothing left to pick.');
  const bin = await resolveBin(tx, picker.teamId, [...new Set(fos.map((f) => f.warehouse_id))], input.location, expected);
  const product = await resolveProduct(tx, picker.teamId, walk, input.barcode, expected);
  const sku = product.sku ?? input.barcode;
  let target: { row: WalkRow | null; share: ToteShare };
  let lot: string;
  let expiration: string | null;
  const stock = input.lot_code ? await scans.findLotStock(tx, product.id, bin.id, input.lot_code) : null;
  if (stock?.expiration_date && stock.expiration_date < today() && !input.short) {
    if (!input.allow_expired) refuse(`Expired lot: ${input.lot_code} of ${sku} expired on ${stock.expiration_date}; do not pick it.`);
    target = await expiredTarget(tx, walk, stock, sku, input, refuse);
    lot = stock.lot_code;
    expiration = stock.expiration_date;
  } else {
    target = targetOf(walk, bin, sku, product.id, input, refuse);
    lot = target.row!.lot_code ?? '';
    expiration = target.row!.expiration_date;
  }
  const foId = target.share.fulfillment_order_id;
  const scan = await scans.insertScan(tx, {
    team_id: picker.teamId,
    picking_session_id: sessionId,
    fulfillment_order_id: foId,
    fulfillment_order_line_item_id: await lineFor(tx, foId, product.id),
    product_id: product.id,
    location_id: bin.id,
    lot_code: lot,
    expiration_date: expiration,
    quantity: input.quantity ?? 1,
    short: input.short ?? false,
    user_id: picker.user?.userId ?? null,
    user_name: picker.user?.userName ?? null,
  });
  if (input.short || picker.user) {
    await scans.updateOrderPicking(tx, foId, {
      ...(input.short ? { short_picked: true } : {}),
      ...(picker.user && !input.short ? { picked_by_user_id: picker.user.userId, picked_by_user_name: picker.user.userName } : {}),
    });
  }
  if (input.short) await scans.requestBinCount(tx, bin.id, new Date());
  const after = await computeWalk(tx, picker.teamId, sessionId);
  if (input.short) await recordPickShortfall(tx, scan.fulfillment_order_line_item_id, foId, product.id, after.short);
  const next = nextOf(after.walk) ?? null;
  return {
    scan: {
      id: scan.id,
      location_id: bin.id,
      location_name: bin.name,
      product_id: product.id,
      sku: product.sku,
      lot_code: lot || null,
      quantity: scan.quantity,
      tote_name: target.share.tote_name,
      fulfillment_order_id: foId,
      short: scan.short,
      created_at: scan.created_at,
    },
    next,
    complete: next === null,
  };
}

export type ScanResult = Awaited<ReturnType<typeof scanOnce>>;

/** POST …/scans: one transaction; with an Idempotency-Key a retried scan applies once. */
export async function recordScan(db: Db, picker: Picker, sessionId: string, input: ScanInput, key?: string): Promise<Answer<ScanResult>> {
  const scope = key ? { teamId: picker.teamId, key, operation: 'createPickScan', body: { sessionId, ...input } } : undefined;
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) => once(tx, scope, 200, () => scanOnce(tx, picker, sessionId, input)));
}

/**
 * DELETE …/scans/{scan_id}: undoes a scan (the units go back to "remaining"). A scan of a
 * fulfillment order that is closed cannot be undone (409). The short flag follows what is left.
 */
export async function undoScan(db: Db, teamId: string, sessionId: string, scanId: string): Promise<void> {
  await transaction(db, async (tx) => {
    await lockSession(tx, teamId, sessionId);
    const scan = await scans.findSessionScan(tx, teamId, sessionId, scanId);
    if (!scan) throw notFound('Pick scan', scanId);
    const fo = await scans.findOrderStatus(tx, scan.fulfillment_order_id);
    if (fo.status === 'FULFILLED' || fo.status === 'CANCELLED') {
      const named = await namedFulfillmentOrder(tx, scan.fulfillment_order_id);
      throw conflict(`${named} is ${fo.status}; its picks can no longer be undone.`);
    }
    await scans.deleteScan(tx, scan.id);
    if (scan.short) {
      const still = await scans.countShortScans(tx, scan.fulfillment_order_id);
      if (!still) await scans.updateOrderPicking(tx, scan.fulfillment_order_id, { short_picked: false });
    }
  });
}
