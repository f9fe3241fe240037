import { randomUUID } from 'node:crypto';
import { keyScope, once, sweepOldAnswers } from '../idempotency/index.js';
import { transaction } from '../../db/tx.js';
import type { Db, Provider, TxClient } from '../../db/types.js';
import { billReceipt } from '../charges/index.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { applyToLevel, levelFor } from '../inventory/index.js';
import { resolveProducts, resolveProductsRead, type ProductRef, type ResolvedProduct } from '../inventory/index.js';
import type { PutawayReason } from '../locations/index.js';
import { reachableTeamIds, type Caller } from '../products/index.js';
import { enqueueForParties } from '../events/index.js';
import { OPEN_STATUSES, openOf, purchaseOrderView } from './view.js';
import * as store from './store.js';
import { binsForLines, receiptChange, receiveInBulk, type ReceiptBin, type ReceiptContext } from './receive-bulk.js';

// Receiving against a purchase order: per line, on_hand rises by the units received (DAMAGED
// ones are set aside: unavailable rises too) and on_order falls by the units that were still
// open, one RECEIVED movement per bucket. Partial and repeated receipts are fine; receiving
// more than is open needs allow_over_receipt. Race-free: the order row is claimed first (a
// compare-and-set on its status, so a concurrent close waits or fails), and each line's
// received count rises in one conditional UPDATE that carries the over-receipt guard.

export interface ReceiptLine extends ProductRef {
  quantity: number;
  condition?: 'SELLABLE' | 'DAMAGED';
  lot_code?: string;
  expiration_date?: string;
  /** The bin received into (id, name or barcode; issue 28): default the receipt's location, else the default location. */
  location?: string;
}

export interface ReceiptInput {
  /** The bin every line goes to unless it names its own (default: the warehouse's default location). */
  location?: string;
  lines: ReceiptLine[];
  allow_over_receipt?: boolean;
  note?: string;
}

export async function receivePurchaseOrder(
  db: Db,
  caller: Caller & { keyId: string | null },
  id: string,
  input: ReceiptInput,
  key?: string,
) {
  const scope = keyScope(caller.teamId, key, 'receivePurchaseOrder', { id, ...input });
  if (scope) sweepOldAnswers(db);
  const early = await productsBeforeClaim(db, caller, id, input.lines);
  return transaction(db, (tx) =>
    once(tx, scope, 200, async () => {
      const po = await claim(tx, db.provider, caller.teamId, id, 'received');
      const products = early ?? (await resolveProducts(tx, await productTeams(tx, caller, po.merchant_team_id), input.lines));
      const receiptId = randomUUID();
      const now = new Date();
      const lineOf = new Map(po.lines.map((l) => [l.product_id, l]));
      const poLines = products.map((p, i) => {
        const poLine = lineOf.get(p.id);
        if (!poLine) throw new DomainError('conflict', `lines[${i}]: ${p.sku ?? p.id} is not on purchase order ${po.id}.`, { line: i });
        return poLine;
      });
      const ctx = { provider: db.provider, teamId: caller.teamId, keyId: caller.keyId, po };
      // Each line's bin: the one it names, else where putaway suggests (docs/floor.md), chosen once.
      const bins = await binsForLines(
        tx,
        ctx,
        input,
        products.map((p) => p.id),
      );
      const bulk = new Set(products.map((p) => p.id)).size === products.length;
      const after = bulk ? await receiveInBulk(tx, ctx, input, products, poLines, bins) : null;
      if (!after) await receiveLineByLine(tx, ctx, input, products, poLines, bins);
      const units = input.lines.reduce((n, l) => n + l.quantity, 0);
      const received: ReceivedLine[] = input.lines.map((line, i) => ({
        product_id: poLines[i].product_id,
        sku: poLines[i].sku,
        quantity: line.quantity,
        condition: line.condition ?? 'SELLABLE',
        lot_code: line.lot_code ?? null,
        expiration_date: line.expiration_date ?? null,
        location_id: bins[i].id,
        location_name: bins[i].name,
        putaway: bins[i].putaway,
      }));
      // The lines as they are now: in bulk, those read at the claim with this receipt's counts (the
      // claim holds the order, so nothing else changed them); line by line, read again.
      const lines = after ? linesAfter(po.lines, input.lines, poLines, after) : await store.findOrderLines(tx, po.id);
      const status = lines.every((l) => l.quantity_received >= l.quantity) ? 'RECEIVED' : 'PARTIALLY_RECEIVED';
      const updated = {
        ...(await store.updateReceivedStatus(tx, po.id, { status, received_at: po.received_at ?? now })),
        lines,
      };
      const warehouse = await store.findWarehouseName(tx, po.warehouse_id);
      const charge = po.fulfillment_delegation_id
        ? await billReceipt(tx, po.team_id, po.fulfillment_delegation_id, {
            name: `Receiving ${po.reference ?? po.id}`,
            quantity: units,
            purchase_order_id: po.id,
            receipt_id: receiptId,
            lines: new Set(received.map((l) => l.product_id)).size,
            warehouse_id: po.warehouse_id,
            warehouse_name: warehouse?.name ?? null,
          })
        : null;
      const view = purchaseOrderView(updated, warehouse?.name);
      const receipt = {
        id: receiptId,
        purchase_order_id: po.id,
        received_at: now,
        units,
        charge_id: charge?.id ?? null,
        lines: received,
        purchase_order: view,
      };
      await enqueueForParties(tx, po, 'purchase_order.received', receipt);
      return receipt;
    }),
  );
}

/** Where a receipt's SKUs resolve: the order's merchant's products, or, without one, all the caller reaches. */
const productTeams = async (client: TxClient, caller: Caller, merchantTeamId: string | null) =>
  merchantTeamId ? [merchantTeamId] : reachableTeamIds(client, caller);

/**
 * The lines' products resolved before the transaction, so a 1,000-line receipt holds SQLite's
 * writer (and a fulfillment waiting for it) ~5 ms less (docs/performance.md, "The wait behind a
 * receipt"): the order's merchant, which fixes where SKUs resolve, never changes, and the claim
 * inside still decides whether the order may receive. Null (resolve inside, after the claim's 404
 * or 409) when the order is not the caller's or not open, so those answers come first as before.
 */
async function productsBeforeClaim(db: Db, caller: Caller, id: string, lines: ReceiptLine[]) {
  const po = await store.findOrderMerchant(db.prisma, caller.teamId, id);
  if (!po || !(OPEN_STATUSES as readonly string[]).includes(po.status)) return null;
  return resolveProductsRead(db, await productTeams(db.prisma, caller, po.merchant_team_id), lines);
}

/** The order's lines after a bulk receipt: `after` is each received line's new quantity_received (by line id). */
function linesAfter<L extends { id: string; quantity_received: number; quantity_damaged: number }>(
  lines: L[],
  input: ReceiptLine[],
  poLines: { id: string }[],
  after: Map<string, number>,
): L[] {
  const damaged = new Map(poLines.map((l, i) => [l.id, input[i].condition === 'DAMAGED' ? input[i].quantity : 0]));
  return lines.map((l) =>
    after.has(l.id) ? { ...l, quantity_received: after.get(l.id)!, quantity_damaged: l.quantity_damaged + damaged.get(l.id)! } : l,
  );
}

/** A receipt naming one product on several lines, line by line in level order (each line's movements and bin as it says). */
async function receiveLineByLine(
  tx: TxClient,
  ctx: ReceiptContext,
  input: ReceiptInput,
  products: ResolvedProduct[],
  poLines: { id: string; product_id: string; quantity: number }[],
  bins: ReceiptBin[],
): Promise<void> {
  for (const i of await levelOrder(
    tx,
    ctx.po.warehouse_id,
    products.map((p) => p.id),
  )) {
    const line = input.lines[i];
    const poLine = poLines[i];
    const damaged = line.condition === 'DAMAGED' ? line.quantity : 0;
    const after = await raiseReceived(tx, poLine, line.quantity, damaged, input.allow_over_receipt ?? false, i);
    const level = await levelFor(tx, poLine.product_id, ctx.po.warehouse_id);
    const change = receiptChange(ctx, input, line, poLine.quantity, after, bins[i]);
    await applyToLevel(tx, level, change.deltas, change.info).then((ok) => {
      if (!ok) throw conflict(`lines[${i}]: the inventory level of ${products[i].sku ?? products[i].id} could not take the receipt.`);
    });
  }
}

type ReceivedLine = {
  product_id: string;
  sku: string | null;
  quantity: number;
  condition: string;
  lot_code: string | null;
  expiration_date: string | null;
  /** The bin the units went to. */
  location_id: string;
  location_name: string;
  /** How a bin was chosen when the line named none (putaway); null when it named one. */
  putaway: PutawayReason | null;
};

/**
 * The lines' indexes in the order their inventory levels are taken: by level id, as adjustments
 * and fulfillment take them, so a receipt and an adjustment of the same SKUs never wait on each
 * other in a cycle (levels not created yet come last, in product order).
 */
async function levelOrder(tx: TxClient, warehouseId: string, productIds: string[]): Promise<number[]> {
  const levels = await store.findLevelIds(tx, warehouseId, productIds);
  const key = new Map(levels.map((l) => [l.product_id, `0${l.id}`]));
  const sortKey = (i: number) => key.get(productIds[i]) ?? `1${productIds[i]}`;
  return productIds.map((_, i) => i).sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : a - b));
}

/** Raises the line's received count unless that would pass what was ordered (without allowOver); returns the new count. */
async function raiseReceived(
  tx: TxClient,
  line: { id: string; quantity: number },
  quantity: number,
  damaged: number,
  allowOver: boolean,
  i: number,
): Promise<number> {
  const { count } = await store.raiseLineReceived(tx, line.id, quantity, damaged, allowOver ? null : line.quantity - quantity);
  const now = await store.findOrderLine(tx, line.id);
  if (count !== 1) {
    throw conflict(
      `lines[${i}]: receiving ${quantity} of ${now.sku ?? now.product_id} passes what is open (${openOf(now)} of ${now.quantity}); pass allow_over_receipt: true to receive it anyway.`,
      {
        line: i,
        quantity_open: openOf(now),
      },
    );
  }
  return now.quantity_received;
}

/**
 * The purchase order of the caller's team, claimed for a change: a compare-and-set on its
 * status (still open) that also takes its row lock on PostgreSQL, so receive, close and cancel
 * of one order serialise; the order and its lines as the claim left them.
 */
export async function claim(tx: TxClient, provider: Provider, teamId: string, id: string, verb: string) {
  const po = await store.claimOpen(tx, provider, teamId, id, new Date());
  if (po) return po;
  const now = await store.findOrderStatus(tx, teamId, id);
  if (!now) throw notFound('Purchase order', id);
  throw conflict(`Purchase order ${id} is ${now.status}; it cannot be ${verb}.`, { status: now.status });
}
