// Shared by the floor tests (issue 28): the location-level ledger check.

import { expect } from 'vitest';
import type { Db } from '../../src/db/types.js';
import { httpCall, ledgerBalanced } from './inventory.fixtures.js';
import { world } from './orders.fixtures.js';

/** A world listening on a port with these bins made in East: `loc` maps each bin's name to its id. */
export async function floorWorld(locations: Record<string, unknown>[]) {
  const w = await world();
  const base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);
  const made = await http('POST', '/v1/ops/locations/bulk', { warehouse_id: w.east, locations });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const loc: Record<string, string> = Object.fromEntries(made.body.data.map((l: { name: string; id: string }) => [l.name, l.id]));
  return { w, base, http, loc };
}

/**
 * The warehouse ledger check, and at bin level: every stock row (product, bin, lot) equals the sum
 * of the on_hand movements naming it, none is negative, and every level's on_hand is the sum of
 * its rows plus its unplaced movements (none for stock that came through the ledger).
 */
export async function binLedgerBalanced(db: Db, productIds: string[], opts: { unplaced?: boolean } = {}) {
  const levels = await ledgerBalanced(db, productIds);
  const rows = await db.prisma.locationStock.findMany({ where: { product_id: { in: productIds } } });
  const sums = await db.prisma.inventoryMovement.groupBy({
    by: ['location_stock_id'],
    where: { product_id: { in: productIds }, bucket: 'on_hand' },
    _sum: { delta: true },
  });
  const byRow = new Map(sums.map((s) => [s.location_stock_id, s._sum.delta ?? 0]));
  for (const r of rows) {
    expect(byRow.get(r.id) ?? 0, `bin row ${r.id} (${r.location_id} lot ${r.lot_code})`).toBe(r.on_hand);
    expect(r.on_hand).toBeGreaterThanOrEqual(0);
  }
  if (!opts.unplaced) expect(byRow.get(null) ?? 0, 'unplaced on_hand movements').toBe(0);
  for (const l of levels) {
    const inBins = rows
      .filter((r) => r.product_id === l.product_id && r.warehouse_id === l.warehouse_id)
      .reduce((n, r) => n + r.on_hand, 0);
    if (!opts.unplaced) expect(inBins, `bins of ${l.product_id}@${l.warehouse_id}`).toBe(l.on_hand);
  }
  return { levels, rows };
}
