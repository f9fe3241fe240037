import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from '../api/orders.fixtures.js';
import { fulfillOrder, httpCall } from '../api/inventory.fixtures.js';
import { ensureCliBundle, ptyFos, spawnFos } from './helpers/spawn.js';

// Issue 34 through `node bin/fos.js` against a real server: damaged units of a receipt land in the
// DAMAGED location, `returns receive --location --lot`, `orders list` filters, and the tables a
// lead works from on an 80-column terminal (pick list, products get, orders list).

let w: World;
let env: Record<string, string>;
let base: string;
beforeAll(async () => {
  await ensureCliBundle();
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: w.token };
  const made = await http('POST', '/v1/ops/locations/bulk', {
    warehouse_id: w.east,
    locations: [
      { name: 'A-01', pick_sequence: 1 },
      { name: 'A-02', pick_sequence: 2 },
    ],
  });
  expect(made.status).toBe(201);
}, 240_000);
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);
const fos = async (...args: string[]) => {
  const r = await spawnFos([...args, '--format', 'json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const bins = async (productId: string) => {
  const rows = await w.t.db.prisma.locationStock.findMany({ where: { product_id: productId, warehouse_id: w.east, on_hand: { gt: 0 } } });
  const names = new Map((await w.t.db.prisma.location.findMany({ where: { warehouse_id: w.east } })).map((l) => [l.id, l.name]));
  return Object.fromEntries(rows.map((r) => [`${names.get(r.location_id)}${r.lot_code ? `/${r.lot_code}` : ''}`, r.on_hand]));
};
/** Every line of a terminal screen fits its width (the note naming hidden columns may wrap). */
const fits = (out: string, columns = 80) =>
  expect(out.split('\n').filter((l) => l.length > columns && !l.startsWith('(hidden to fit'))).toEqual([]);

let mug: string;
describe('held stock and tables on the command line', () => {
  it('receives damaged units into the DAMAGED location even with --location', async () => {
    mug = await w.product('HT-MUG');
    await w.t.db.prisma.product.update({ where: { id: mug }, data: { lot_tracked: true } });
    const po = await fos('purchase-orders', 'create', '--warehouse', 'East', 'HT-MUG=10');
    const r = await fos('purchase-orders', 'receive', po.id, 'HT-MUG=8', '--damaged', 'HT-MUG=2', '--lot', 'L-1', '--location', 'A-01');
    expect(r.lines.map((l: any) => [l.condition, l.location_name])).toEqual([
      ['SELLABLE', 'A-01'],
      ['DAMAGED', 'DAMAGED'],
    ]);
    expect(await bins(mug)).toEqual({ 'A-01/L-1': 8, 'DAMAGED/L-1': 2 });
  });

  it('shows the pick list with location, SKU, quantity, lot and tote in walk order at 80 columns', async () => {
    await w.product('HT-TEE-WITH-A-LONG-SKU', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('HT-TEE-WITH-A-LONG-SKU', 1), line('HT-MUG', 3)], payment_status: 'PAID' });
    const [fo] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
    const s = await http('POST', '/v1/ops/picking-sessions', { name: 'W1', fulfillment_order_ids: [fo.id] });
    expect(s.status).toBe(201);
    const walk = await http('GET', `/v1/ops/picking-sessions/${s.body.id}/pick-list`);
    const tote = walk.body.rows[0].totes[0].tote_name;
    const { code, out } = await ptyFos(['picking-sessions', 'pick-list', s.body.id], env, 80);
    expect(code, out).toBe(0);
    fits(out);
    const table = out.slice(out.indexOf('rows ('));
    const lines = table.split('\n').map((l) => l.trim().split(/\s+/));
    expect(lines[1]).toEqual(['LOCATION', 'SKU', 'QUANTITY', 'LEFT', 'LOT', 'TOTE', 'ORDER']);
    // Walk order: the default location's pick_sequence is 0.
    expect(lines.slice(2, 4)).toEqual([
      ['DEFAULT', 'HT-TEE-WITH-A-LONG-SKU', '1', '1', tote, order.order_number],
      ['A-01', 'HT-MUG', '3', '3', 'L-1', tote, order.order_number],
    ]);
    expect(out).not.toMatch(/DAMAGED/);
  });

  it('shows stock per warehouse with its figures in products get at 80 columns', async () => {
    const { code, out } = await ptyFos(['products', 'get', mug], env, 80);
    expect(code, out).toBe(0);
    fits(out);
    const table = out.slice(out.indexOf('inventory_by_warehouse ('));
    const lines = table.split('\n').map((l) => l.trim().split(/\s+/));
    expect(lines[1]).toEqual(['WAREHOUSE', 'ON_HAND', 'COMMITTED', 'UNAVAILABLE', 'AVAILABLE', 'ON_ORDER']);
    expect(lines[2]).toEqual(['East', '10', '3', '2', '5', '0']);
  });

  it('filters orders by warehouse and hold state, shows the merchant, and never cuts ids to an ambiguous prefix', async () => {
    await w.product('HT-W', { [w.west]: 5 });
    const west = await w.order({ line_items: [line('HT-W', 1)], payment_status: 'PAID' });
    const held = await w.order({ line_items: [line('HT-TEE-WITH-A-LONG-SKU', 1)] }); // unpaid: on hold
    const all = (await fos('orders', 'list', '--json', 'id')).map((o: any) => o.id);
    expect(all).toHaveLength(3);
    expect((await fos('orders', 'list', '--warehouse', 'West')).map((o: any) => o.id)).toEqual([west.id]);
    expect((await fos('orders', 'list', '--on-hold', 'true')).map((o: any) => o.id)).toEqual([held.id]);
    expect((await fos('orders', 'list', '--on-hold', 'false', '--warehouse', 'East')).map((o: any) => o.order_number)).toEqual(['#1001']);
    const merchant = (await w.t.db.prisma.team.findUniqueOrThrow({ where: { id: w.merchantId } })).name;
    expect((await fos('orders', 'list', '--merchant', w.merchantId)).map((o: any) => o.merchant_team_name)).toEqual([
      merchant,
      merchant,
      merchant,
    ]);
    const { code, out } = await ptyFos(['orders', 'list'], env, 80);
    expect(code, out).toBe(0);
    fits(out);
    expect(out).toMatch(/MERCHANT_TEAM_NAME/);
    const shown = out
      .split('\n')
      .map((l) => l.trim().split(/\s+/)[0])
      .filter((c) => /^[0-9a-f]{8}/.test(c));
    expect(shown).toHaveLength(3);
    for (const id of shown) {
      expect(id.length).toBeGreaterThanOrEqual(8);
      expect(all.filter((full: string) => full.startsWith(id))).toHaveLength(1);
    }
  });

  it('receives a return into the bin and lot named, by default the lot it shipped from', async () => {
    const order = await w.order({ line_items: [line('HT-MUG', 2)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, http, order.id)).toEqual([200]);
    const ret = await fos('returns', 'create', order.order_number, 'HT-MUG=2');
    const bad = await spawnFos(['returns', 'receive', ret.id, 'HT-MUG=1', '--location', 'NOPE'], env);
    expect(bad.code, bad.stderr).toBe(4);
    await fos('returns', 'receive', ret.id, 'HT-MUG=1', '--location', 'A-02');
    const r = await fos('returns', 'receive', ret.id, 'HT-MUG=1', '--location', 'A-02', '--lot', 'L-7');
    expect(r).toMatchObject({ status: 'RECEIVED', lines: [{ quantity_received: 2, quantity_restocked: 2 }] });
    expect(await bins(mug)).toMatchObject({ 'A-02/L-1': 1, 'A-02/L-7': 1, 'DAMAGED/L-1': 2 });
  });
});
