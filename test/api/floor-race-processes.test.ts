import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, freshSqliteUrl } from '../helpers/db.js';
import { fixtureMerchant, fixtureWarehouse, SHIP_TO } from '../helpers/fixtures.js';
import { replicaWorld, startReplicas, type Replicas, type ReplicaWorld } from '../helpers/replicas.js';
import { fulfillOrder } from './inventory.fixtures.js';
import { binLedgerBalanced } from './floor.fixtures.js';

// Two `fos serve` processes (the built CLI: `npm run build` first) on one database — a SQLite file,
// or PostgreSQL with FOS_TEST_DB=postgres — where picks (fulfills), moves between bins, counts of a
// bin, receipts into a bin and found stock all hit the same bins at once. Afterwards every bin
// equals the sum of its movements, every level the sum of its bins, and no bin is negative.

const postgres = /^postgres/.test(process.env.FOS_TEST_DB ?? '');
let w: ReplicaWorld;
let r: Replicas;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const fresh = postgres ? await freshPostgresUrl() : await freshSqliteUrl();
  cleanup = fresh.cleanup;
  w = await replicaWorld(fresh.url);
  r = await startReplicas(fresh.url, 2);
}, 90_000);
afterAll(async () => {
  await r?.stop();
  await w?.db.close();
  await cleanup?.();
});

const send = (i: number, method: string, p: string, body?: unknown) => r.send(i % 2, method, p, body, w.token);

describe(`bins across two fos serve processes (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('picks, moves, counts, receipts and found stock on the same bins: the location-level ledger holds', async () => {
    const merchant = await fixtureMerchant(w.fx);
    const warehouse = await fixtureWarehouse(w.fx);
    const sku = `BIN-RACE-${Date.now()}`;
    const product = await w.db.prisma.product.create({
      data: {
        team_id: merchant,
        merchant_team_id: merchant,
        fulfiller_team_id: w.teamId,
        name: sku,
        sku,
        measurement_unit: 'MM',
        weight_unit: 'G',
        weight: 100,
      },
    });
    const bins = await send(0, 'POST', '/ops/locations/bulk', {
      warehouse_id: warehouse,
      locations: [
        { name: 'A-1', type: 'PICKABLE' },
        { name: 'O-1', type: 'OVERSTOCK' },
        { name: 'R-1', type: 'RECEIVING' },
      ],
    });
    expect(bins.status, JSON.stringify(bins.body)).toBe(201);
    const po = await send(0, 'POST', '/ops/purchase-orders', { warehouse_id: warehouse, lines: [{ sku, quantity: 70 }] });
    expect(po.status, JSON.stringify(po.body)).toBe(201);
    expect(
      (await send(1, 'POST', `/ops/purchase-orders/${po.body.id}/receive`, { location: 'R-1', lines: [{ sku, quantity: 30 }] })).status,
    ).toBe(200);
    expect(
      (
        await send(0, 'POST', '/ops/inventory/moves', {
          warehouse_id: warehouse,
          from_location: 'R-1',
          to_location: 'A-1',
          lines: [{ sku, quantity: 12 }],
        })
      ).status,
    ).toBe(201);
    const drafts = [];
    for (let i = 0; i < 8; i++) {
      const d = await send(i, 'POST', '/ops/draft-orders', {
        shipping_address: SHIP_TO,
        payment_status: 'PAID',
        line_items: [{ sku, quantity: 2, price: 5 }],
      });
      expect(d.status, JSON.stringify(d.body)).toBe(201);
      drafts.push(d.body.id as string);
    }
    let turn = 0;
    const http = (method: string, p: string, body?: unknown) => send(turn++, method, p.replace(/^\/v1/, ''), body);
    const move = (i: number, from: string, to: string, quantity: number) =>
      send(i, 'POST', '/ops/inventory/moves', {
        warehouse_id: warehouse,
        from_location: from,
        to_location: to,
        lines: [{ sku, quantity }],
      });
    const adjust = (i: number, body: Record<string, unknown>) =>
      send(i, 'POST', '/ops/inventory/adjustments', { warehouse_id: warehouse, ...body });
    const results = await Promise.all([
      ...drafts.map(async (id, i) => {
        const order = await send(i, 'POST', `/ops/draft-orders/${id}/convert`);
        expect(order.status, JSON.stringify(order.body)).toBe(200);
        return { fulfills: await fulfillOrder(w.db, http, order.body.id) };
      }),
      ...Array.from({ length: 8 }, (_, i) =>
        send(i, 'POST', `/ops/purchase-orders/${po.body.id}/receive`, { location: 'R-1', lines: [{ sku, quantity: 5 }] }),
      ),
      ...Array.from({ length: 6 }, (_, i) => move(i, 'R-1', 'A-1', 3)),
      ...Array.from({ length: 4 }, (_, i) => move(i, 'A-1', 'O-1', 2)),
      ...Array.from({ length: 3 }, (_, i) => adjust(i, { reason: 'FOUND', location: 'A-1', lines: [{ sku, delta: 1 }] })),
      adjust(0, { reason: 'CYCLE_COUNT', location: 'O-1', lines: [{ sku, counted: 5 }] }),
      adjust(1, { reason: 'CYCLE_COUNT', location: 'R-1', lines: [{ sku, counted: 9 }] }),
    ]);
    const fulfills = (results.slice(0, 8) as { fulfills: number[] }[]).flatMap((x) => x.fulfills);
    expect(
      fulfills.every((s) => s === 200),
      JSON.stringify(fulfills),
    ).toBe(true);
    const others = results.slice(8) as { status: number; body: unknown }[];
    expect(
      others.every((x) => [200, 201, 409].includes(x.status)),
      JSON.stringify(others.map((x) => [x.status, x.body])),
    ).toBe(true);
    expect(others.slice(0, 8).filter((x) => x.status === 200)).toHaveLength(8); // 40 open, 5 at a time
    const { levels, rows } = await binLedgerBalanced(w.db, [product.id]);
    expect(levels[0].committed).toBe(0); // every order shipped in full
    expect(rows.reduce((n, x) => n + x.on_hand, 0)).toBe(levels[0].on_hand);
    const shipped = await w.db.prisma.inventoryMovement.findMany({
      where: { product_id: product.id, kind: 'FULFILLED', bucket: 'on_hand' },
    });
    expect(shipped.reduce((n, m) => n + m.delta, 0)).toBe(-16);
    expect(shipped.every((m) => m.location_id !== null)).toBe(true);
  }, 180_000);
});
