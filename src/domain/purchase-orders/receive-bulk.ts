import type { Provider, TxClient } from '../../db/types.js';
import { conflict } from '../errors.js';
import { applyToLevels, levelsFor, type LevelChange } from '../inventory/index.js';
import type { ResolvedProduct } from '../inventory/index.js';
import { resolveLocation } from '../locations/index.js';
import { damagedBinFor } from '../locations/index.js';
import { suggestPutaway, type PutawayReason } from '../locations/index.js';
import { openOf } from './view.js';
import { findOrderLine, raiseReceived, type ReceivedRow } from './store.js';
import type { ReceiptInput, ReceiptLine } from './receive.js';

// A receipt's lines in bulk (issue 29 item 3): the received counts of every purchase-order line
// rise in one conditional UPDATE (the over-receipt guard per line in its WHERE), the levels are
// created and moved by the bulk ledger (ledger-bulk.ts: one guarded UPDATE, one bin upsert, one
// INSERT of movements, backorders filled), so 1,000 lines cost a handful of statements. For lines
// that each name a different product; receive.ts takes the others line by line.

interface PoLine {
  id: string;
  product_id: string;
  sku: string | null;
  quantity: number;
}

export interface ReceiptContext {
  provider: Provider;
  teamId: string;
  keyId: string | null;
  po: { id: string; warehouse_id: string };
}

/** The bin a receipt line goes to; `putaway` says how it was chosen when the line named none. */
export interface ReceiptBin {
  id: string;
  name: string;
  putaway: PutawayReason | null;
}

/**
 * The bin each line is received into: the one it (or the receipt) names, else the putaway
 * suggestion for its product (docs/floor.md; one call for the whole receipt); DAMAGED lines go to
 * the warehouse's DAMAGED location unless they name a held bin (issue 34). The one place a
 * receipt chooses bins, for the bulk and the line-by-line paths alike.
 */
export async function binsForLines(tx: TxClient, ctx: ReceiptContext, input: ReceiptInput, productIds: string[]): Promise<ReceiptBin[]> {
  const resolved = new Map<string, { id: string; name: string; type: string }>();
  const binOf = async (ref: string, path: string) => {
    const key = `${path === 'location' ? 'r' : 'l'}:${ref}`;
    if (!resolved.has(key)) resolved.set(key, await resolveLocation(tx, ctx.teamId, ref, ctx.po.warehouse_id, path));
    return resolved.get(key)!;
  };
  const damaged = (i: number) => input.lines[i].condition === 'DAMAGED';
  const unnamed = productIds.filter((_, i) => !input.lines[i].location && !input.location && !damaged(i));
  const putaway = await suggestPutaway(tx, ctx.po.warehouse_id, unnamed);
  const out: ReceiptBin[] = [];
  for (const [i, line] of input.lines.entries()) {
    const where = line.location ?? input.location;
    const bin = where ? await binOf(where, line.location ? `lines[${i}].location` : 'location') : null;
    if (damaged(i)) {
      const held = await damagedBinFor(tx, ctx.po.warehouse_id, bin);
      out.push({ id: held.id, name: held.name, putaway: held.named ? null : 'DAMAGED_LOCATION' });
    } else if (bin) {
      out.push({ id: bin.id, name: bin.name, putaway: null });
    } else {
      const s = putaway.get(productIds[i])!;
      out.push({ id: s.location_id, name: s.location_name, putaway: s.reason });
    }
  }
  return out;
}

/**
 * What receiving one line does to its level and the movement it records, for both paths:
 * `receivedAfter` is the line's received count after this receipt (what was open before it
 * bounds the on_order taken off).
 */
export function receiptChange(
  ctx: ReceiptContext,
  input: ReceiptInput,
  line: ReceiptLine,
  ordered: number,
  receivedAfter: number,
  bin: ReceiptBin,
): Omit<LevelChange, 'level'> {
  const damaged = line.condition === 'DAMAGED' ? line.quantity : 0;
  const openBefore = openOf({ quantity: ordered, quantity_received: receivedAfter - line.quantity });
  return {
    deltas: { on_hand: line.quantity, unavailable: damaged, on_order: -Math.min(line.quantity, openBefore) },
    info: {
      kind: 'RECEIVED',
      reason: damaged ? 'DAMAGED' : null,
      note: input.note ?? null,
      reference_type: 'purchase_order',
      reference_id: ctx.po.id,
      actor_key_id: ctx.keyId,
      lot_code: line.lot_code ?? null,
      expiration_date: line.expiration_date ?? null,
      placement: { location_id: bin.id },
    },
  };
}

/** Receives every line (products all different); returns each purchase-order line's new quantity_received, by line id. */
export async function receiveInBulk(
  tx: TxClient,
  ctx: ReceiptContext,
  input: ReceiptInput,
  products: ResolvedProduct[],
  poLines: PoLine[],
  bins: ReceiptBin[],
): Promise<Map<string, number>> {
  const after = await raiseAllReceived(tx, ctx.provider, input.lines, poLines, input.allow_over_receipt ?? false);
  const levelIds = await levelsFor(
    tx,
    ctx.provider,
    ctx.po.warehouse_id,
    products.map((p) => p.id),
  );
  const changes: LevelChange[] = input.lines.map((line, i) => {
    const poLine = poLines[i];
    const level = {
      id: levelIds.get(poLine.product_id)!,
      product_id: poLine.product_id,
      warehouse_id: ctx.po.warehouse_id,
      sku: products[i].sku,
    };
    return { level, ...receiptChange(ctx, input, line, poLine.quantity, after.get(poLine.id)!, bins[i]) };
  });
  const refused = await applyToLevels(tx, ctx.provider, changes);
  if (refused >= 0) {
    throw conflict(
      `lines[${refused}]: the inventory level of ${products[refused].sku ?? products[refused].id} could not take the receipt.`,
    );
  }
  return after;
}

/**
 * Raises every line's received count unless that would pass what was ordered (without
 * allowOver), in one UPDATE; returns the new counts by purchase-order line id, or throws the 409
 * of the first line (in request order) that would pass it.
 */
async function raiseAllReceived(
  tx: TxClient,
  provider: Provider,
  lines: ReceiptLine[],
  poLines: PoLine[],
  allowOver: boolean,
): Promise<Map<string, number>> {
  const values = lines.map((l, i): ReceivedRow => [poLines[i].id, l.quantity, l.condition === 'DAMAGED' ? l.quantity : 0]);
  const rows = await raiseReceived(tx, provider, values, allowOver, new Date());
  const after = new Map(rows.map((r) => [r.id, r.quantity_received]));
  const i = lines.findIndex((_, k) => !after.has(poLines[k].id));
  if (i < 0) return after;
  const now2 = await findOrderLine(tx, poLines[i].id);
  throw conflict(
    `lines[${i}]: receiving ${lines[i].quantity} of ${now2.sku ?? now2.product_id} passes what is open (${openOf(now2)} of ${now2.quantity}); pass allow_over_receipt: true to receive it anyway.`,
    { line: i, quantity_open: openOf(now2) },
  );
}
