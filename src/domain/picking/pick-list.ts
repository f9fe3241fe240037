import { join } from '@prisma/client/runtime/client';
import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { LOCATION_TYPES } from '../../contract/inventory-enums.js';
import { today } from '../inventory/bins.js';

// GET /v1/ops/picking-sessions/{id}/pick-list (issue 28): the walk for a session. The units its
// open fulfillment orders still need are drawn from bins by the same rule a fulfil uses (bins.ts:
// PICKABLE before OVERSTOCK, earliest unexpired lot first, then FIFO; never DAMAGED bins or expired
// lots), fulfillment orders in the order they were created. One row per bin, product and lot, in
// pick_sequence order, with the totes that get how many. Units no bin can give are listed as
// `short`. A read: nothing is reserved, so the list is what the bins hold now.

interface BinRow {
  id: string;
  product_id: string;
  warehouse_id: string;
  location_id: string;
  lot_code: string;
  expiration_date: string | null;
  on_hand: number;
  name: string;
  type: string;
  pick_sequence: number;
  created_at: Date;
}

const rank = (t: string) => (LOCATION_TYPES as readonly string[]).indexOf(t);

export async function pickList(db: Db, teamId: string, sessionId: string) {
  const session = await db.prisma.pickingSession.findFirst({ where: { id: sessionId, team_id: teamId } });
  if (!session) throw notFound('Picking session', sessionId);
  const fos = await db.prisma.fulfillmentOrder.findMany({
    where: { picking_session_id: sessionId, fulfiller_team_id: teamId, status: { notIn: ['FULFILLED', 'CANCELLED'] } },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    include: {
      line_items: { where: { remaining_quantity: { gt: 0 }, product_id: { not: null } }, orderBy: { created_at: 'asc' } },
      order: { select: { order_number: true } },
    },
  });
  const productIds = [...new Set(fos.flatMap((f) => f.line_items.map((l) => l.product_id!)))];
  const warehouseIds = [...new Set(fos.map((f) => f.warehouse_id))];
  const day = today();
  const bins = productIds.length
    ? (
        await db.prisma.$queryRaw<BinRow[]>`
    SELECT s."id", s."product_id", s."warehouse_id", s."location_id", s."lot_code", s."expiration_date", s."on_hand", s."created_at",
      l."name", l."type", l."pick_sequence"
    FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
    WHERE s."product_id" IN (${join(productIds)}) AND s."warehouse_id" IN (${join(warehouseIds)}) AND s."on_hand" > 0 AND l."type" <> 'DAMAGED'`
      )
        .map((r) => ({ ...r, on_hand: Number(r.on_hand), pick_sequence: Number(r.pick_sequence) }))
        .filter((r) => r.expiration_date === null || r.expiration_date >= day)
        .sort(
          (a, b) =>
            rank(a.type) - rank(b.type) ||
            (a.expiration_date ?? '9999').localeCompare(b.expiration_date ?? '9999') ||
            a.pick_sequence - b.pick_sequence ||
            new Date(a.created_at).getTime() - new Date(b.created_at).getTime() ||
            (a.id < b.id ? -1 : 1),
        )
    : [];
  const [products, totes] = await Promise.all([
    db.prisma.product.findMany({ where: { id: { in: productIds } }, select: { id: true, sku: true, name: true, barcode: true } }),
    db.prisma.tote.findMany({
      where: { id: { in: fos.flatMap((f) => (f.tote_id ? [f.tote_id] : [])) } },
      select: { id: true, name: true },
    }),
  ]);
  const product = new Map(products.map((p) => [p.id, p]));
  const toteName = new Map(totes.map((t) => [t.id, t.name]));
  const rows = new Map<
    string,
    {
      bin: BinRow;
      quantity: number;
      totes: Map<
        string,
        { fulfillment_order_id: string; order_number: string; tote_id: string | null; tote_name: string | null; quantity: number }
      >;
    }
  >();
  const short: { fulfillment_order_id: string; product_id: string; sku: string | null; quantity: number }[] = [];
  for (const fo of fos) {
    for (const line of fo.line_items) {
      let need = line.remaining_quantity;
      for (const bin of bins) {
        if (!need) break;
        if (bin.product_id !== line.product_id || bin.warehouse_id !== fo.warehouse_id || bin.on_hand <= 0) continue;
        const n = Math.min(need, bin.on_hand);
        bin.on_hand -= n;
        need -= n;
        const row = rows.get(bin.id) ?? { bin, quantity: 0, totes: new Map() };
        row.quantity += n;
        const t = row.totes.get(fo.id) ?? {
          fulfillment_order_id: fo.id,
          order_number: fo.order.order_number,
          tote_id: fo.tote_id,
          tote_name: fo.tote_id ? (toteName.get(fo.tote_id) ?? null) : null,
          quantity: 0,
        };
        t.quantity += n;
        row.totes.set(fo.id, t);
        rows.set(bin.id, row);
      }
      if (need) short.push({ fulfillment_order_id: fo.id, product_id: line.product_id!, sku: line.sku, quantity: need });
    }
  }
  const walk = [...rows.values()]
    .sort((a, b) => a.bin.pick_sequence - b.bin.pick_sequence || a.bin.name.localeCompare(b.bin.name))
    .map((r) => {
      const p = product.get(r.bin.product_id);
      return {
        location_id: r.bin.location_id,
        location_name: r.bin.name,
        location_type: r.bin.type,
        pick_sequence: r.bin.pick_sequence,
        product_id: r.bin.product_id,
        sku: p?.sku ?? null,
        product_name: p?.name ?? '',
        barcode: p?.barcode ?? null,
        lot_code: r.bin.lot_code || null,
        expiration_date: r.bin.expiration_date,
        quantity: r.quantity,
        totes: [...r.totes.values()],
      };
    });
  return { picking_session_id: sessionId, fulfillment_order_count: fos.length, rows: walk, short };
}
