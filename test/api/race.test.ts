import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import type { Db } from '../../src/db/types.js';
import { buildApp } from '../../src/server/app.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture, type Fixture } from '../helpers/fixtures.js';

// Real races over real sockets: parallel requests against two listening servers, then exact
// quantities asserted in the database. On PostgreSQL the second server has its own pool, like a
// replica. On SQLite both servers share the process's one connection, as every request of a
// `fos serve` process does (two connections to one file inside ONE process would stall: the
// busy handler sleeps synchronously and blocks the event loop the lock holder needs). Several
// processes on one database: test/pg/replicas.test.ts.

let t: TestApp;
let token: string;
let urlA: string;
let urlB: string;
let appB: FastifyInstance;
let dbB: Db;

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  urlA = await t.app.listen({ port: 0, host: '127.0.0.1' });
  dbB = t.db.provider === 'postgresql' ? await createDb(t.db.url) : t.db;
  appB = await buildApp({ db: dbB, config: { logger: false } });
  urlB = await appB.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await appB?.close();
  if (dbB !== t.db) await dbB?.close();
  await t?.close();
});

/** A one-shot barrier: `passed` resolves once `open()` is called. */
function barrier() {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { open, passed };
}

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-access-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const LABEL = { label_url: 'https://l.example/x.pdf', carrier: 'UPS', service: 'Ground', cost: 5, cost_currency: 'USD' };

async function labelledPackage(f: Fixture, lines: Array<[number, number]>) {
  const p = await post(urlA, '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    package_line_items: lines.map(([i, q]) => ({ sku: f.foLines[i].sku, quantity: q })),
  });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  const l = await post(urlA, `/v1/ops/packages/${p.body.id}/label`, { ...LABEL, tracking_number: `T${p.body.id.slice(-10)}` });
  expect(l.status, JSON.stringify(l.body)).toBe(200);
  return p.body.id as string;
}

/** A second, labelled package written straight to the database (bypasses the create check). */
async function bypassPackage(f: Fixture, line: number, quantity: number, foLineId = f.foLines[line].id) {
  const p = await t.db.prisma.package.create({
    data: {
      fulfiller_team_id: t.teamId,
      merchant_team_id: f.merchantTeamId,
      fulfillment_order_id: f.fo.id,
      warehouse_id: f.warehouseId,
      shipment_status: 'LABEL_PRINTED',
      line_items: {
        create: [{ product_id: f.products[line].id, sku: f.foLines[line].sku, quantity, core_fulfillment_order_line_item_id: foLineId }],
      },
      shipping_label: { create: { fulfiller_team_id: t.teamId, merchant_team_id: f.merchantTeamId, tracking_code: `B${Math.random()}` } },
    },
  });
  return p.id;
}

const level = (productId: string, warehouseId: string) =>
  t.db.prisma.inventoryLevel.findUniqueOrThrow({
    where: { product_id_warehouse_id: { product_id: productId, warehouse_id: warehouseId } },
  });

describe('races', () => {
  it('10 parallel lock requests with different owners (across two servers): exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const f = await fulfillmentFixture(t, { status: 'ACCEPTED' });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          post(i % 2 ? urlB : urlA, `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: `owner-${i}`, timeout_minutes: 10 }),
        ),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners, JSON.stringify(results.map((r) => r.status))).toHaveLength(1);
      const owner = winners[0].body.lock_owner;
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.body).toMatchObject({ type: 'urn:fos:error:lock-held', lock_owner: owner });
      }
      const row = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
      expect(row).toMatchObject({ lock_owner: owner, status: 'IN_PROGRESS' });
    }
  });

  it('two parallel fulfills of the same package: one 200, one 409, one decrement', async () => {
    for (let round = 0; round < 3; round++) {
      const f = await fulfillmentFixture(t, { lines: [{ quantity: 5, onHand: 8 }], status: 'ACCEPTED' });
      await post(urlA, `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 10 });
      const id = await labelledPackage(f, [[0, 3]]);
      const results = await Promise.all([urlA, urlB].map((u) => post(u, `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await t.db.prisma.fulfillment.count({ where: { package_id: id } })).toBe(1);
      expect((await t.db.prisma.fulfillmentOrderLineItem.findUniqueOrThrow({ where: { id: f.foLines[0].id } })).remaining_quantity).toBe(2);
      expect((await t.db.prisma.orderLineItem.findUniqueOrThrow({ where: { id: f.orderLines[0].id } })).remaining_quantity).toBe(2);
      expect(await level(f.products[0].id, f.warehouseId)).toMatchObject({ on_hand: 5, committed: 2 });
      expect((await t.db.prisma.order.findUniqueOrThrow({ where: { id: f.order.id } })).fulfillment_count).toBe(1);
    }
  });

  it('two packages holding the same units (one behind the API): racing fulfills fulfill only one', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 4, onHand: 10 }], status: 'ACCEPTED' });
    await post(urlA, `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 10 });
    const a = await labelledPackage(f, [[0, 4]]);
    const b = await bypassPackage(f, 0, 4);
    const results = await Promise.all([
      post(urlA, `/v1/ops/packages/${a}/fulfill`, { locked_by: 'packer' }),
      post(urlB, `/v1/ops/packages/${b}/fulfill`, { locked_by: 'packer' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await t.db.prisma.package.count({ where: { id: { in: [a, b] }, status: 'FULFILLED' } })).toBe(1);
    expect((await t.db.prisma.fulfillmentOrderLineItem.findUniqueOrThrow({ where: { id: f.foLines[0].id } })).remaining_quantity).toBe(0);
    expect((await t.db.prisma.orderLineItem.findUniqueOrThrow({ where: { id: f.orderLines[0].id } })).remaining_quantity).toBe(0);
    expect(await level(f.products[0].id, f.warehouseId)).toMatchObject({ on_hand: 6, committed: 0 });
  });

  it('two fulfillment orders over-claiming one order line and one stock level: the conditional decrements let one through', async () => {
    for (let round = 0; round < 3; round++) {
      // FO A ships the order's 4 units; FO B (written behind the API) claims the same order line again,
      // from the same warehouse, whose stock covers only one of them.
      const f = await fulfillmentFixture(t, { lines: [{ quantity: 4, onHand: 6, committed: 6 }], status: 'ACCEPTED' });
      const foB = await t.db.prisma.fulfillmentOrder.create({
        data: {
          order_id: f.order.id,
          warehouse_id: f.warehouseId,
          fulfiller_team_id: t.teamId,
          merchant_team_id: f.merchantTeamId,
          status: 'ACCEPTED',
          request_status: 'ACCEPTED',
          line_items: {
            create: [
              {
                order_line_item_id: f.orderLines[0].id,
                product_id: f.products[0].id,
                sku: f.foLines[0].sku,
                name: 'dup',
                quantity: 4,
                remaining_quantity: 4,
              },
            ],
          },
        },
        include: { line_items: true },
      });
      const g: Fixture = { ...f, fo: foB, foLines: foB.line_items };
      await post(urlA, `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'ann', timeout_minutes: 10 });
      await post(urlB, `/v1/ops/fulfillment-orders/${foB.id}/lock`, { lock_owner: 'ben', timeout_minutes: 10 });
      const a = await labelledPackage(f, [[0, 4]]);
      const b = await labelledPackage(g, [[0, 4]]);
      const results = await Promise.all([
        post(urlA, `/v1/ops/packages/${a}/fulfill`, { locked_by: 'ann' }),
        post(urlB, `/v1/ops/packages/${b}/fulfill`, { locked_by: 'ben' }),
      ]);
      expect(results.map((r) => r.status).sort(), JSON.stringify(results)).toEqual([200, 409]);
      const loser = results.find((r) => r.status === 409)!;
      expect(loser.body.type).toBe('urn:fos:error:conflict');
      expect((await t.db.prisma.orderLineItem.findUniqueOrThrow({ where: { id: f.orderLines[0].id } })).remaining_quantity).toBe(0);
      expect(await level(f.products[0].id, f.warehouseId)).toMatchObject({ on_hand: 2, committed: 2 });
      const foLines = await t.db.prisma.fulfillmentOrderLineItem.findMany({
        where: { id: { in: [f.foLines[0].id, foB.line_items[0].id] } },
      });
      expect(foLines.map((l) => l.remaining_quantity).sort()).toEqual([0, 4]); // the loser's decrement rolled back
      expect(await t.db.prisma.fulfillment.count({ where: { order_id: f.order.id } })).toBe(1);
      const order = await t.db.prisma.order.findUniqueOrThrow({ where: { id: f.order.id } });
      expect(order).toMatchObject({ fulfillment_status: 'FULFILLED', fulfillment_count: 1 });
    }
  });

  // Each fulfill settles the order from what all its lines have left: neither may decide from a
  // view without the other's decrement, or the order would stay PARTIALLY_FULFILLED for good.
  it('two fulfillment orders of one order (one line each) fulfilled at once: the order ends FULFILLED and CLOSED', async () => {
    for (let round = 0; round < 4; round++) {
      const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }, { quantity: 3 }], status: 'ACCEPTED' });
      // The second line moves to a fulfillment order of its own (a split, written behind the API).
      await t.db.prisma.fulfillmentOrderLineItem.delete({ where: { id: f.foLines[1].id } });
      const foB = await t.db.prisma.fulfillmentOrder.create({
        data: {
          order_id: f.order.id,
          warehouse_id: f.warehouseId,
          fulfiller_team_id: t.teamId,
          merchant_team_id: f.merchantTeamId,
          status: 'ACCEPTED',
          request_status: 'ACCEPTED',
          line_items: {
            create: [
              {
                order_line_item_id: f.orderLines[1].id,
                product_id: f.products[1].id,
                sku: f.foLines[1].sku,
                name: 'split',
                quantity: 3,
                remaining_quantity: 3,
              },
            ],
          },
        },
        include: { line_items: true },
      });
      const g: Fixture = { ...f, fo: foB, foLines: foB.line_items };
      await post(urlA, `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'ann', timeout_minutes: 10 });
      await post(urlB, `/v1/ops/fulfillment-orders/${foB.id}/lock`, { lock_owner: 'ben', timeout_minutes: 10 });
      const a = await labelledPackage(f, [[0, 2]]);
      const b = await labelledPackage(g, [[0, 3]]);
      const results = await Promise.all([
        post(urlA, `/v1/ops/packages/${a}/fulfill`, { locked_by: 'ann' }),
        post(urlB, `/v1/ops/packages/${b}/fulfill`, { locked_by: 'ben' }),
      ]);
      expect(
        results.map((r) => r.status),
        JSON.stringify(results),
      ).toEqual([200, 200]);
      const order = await t.db.prisma.order.findUniqueOrThrow({ where: { id: f.order.id } });
      expect(order).toMatchObject({ fulfillment_status: 'FULFILLED', status: 'CLOSED', fulfillment_count: 2, tracking_count: 2 });
      expect(order.closed_at).not.toBeNull();
    }
  });

  it('racing package creates never allocate more than remains', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 5 }], status: 'ACCEPTED' });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(i % 2 ? urlB : urlA, '/v1/ops/packages', {
          fulfillment_order_id: f.fo.id,
          package_line_items: [{ sku: f.foLines[0].sku, quantity: 2 }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(6);
    const lines = await t.db.prisma.packageLineItem.findMany({ where: { package: { fulfillment_order_id: f.fo.id } } });
    expect(lines.reduce((s, l) => s + l.quantity, 0)).toBe(4);
  });

  it('racing creates with one idempotency key make one package', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 5 }] });
    const body = {
      fulfillment_order_id: f.fo.id,
      idempotency_key: 'dup-key',
      package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
    };
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i % 2 ? urlB : urlA, '/v1/ops/packages', body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await t.db.prisma.package.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(1);
  });

  it('a plain write during a concurrent transaction that rolls back is kept (and never sees its rows)', async () => {
    // Barriers, not sleeps: the transaction holds its uncommitted row until the outside read and
    // write have been sent. On PostgreSQL they run beside the open transaction (another pool
    // connection), so they are awaited before it ends; on SQLite they queue behind it on the
    // process's one connection by construction, so it is released first.
    const inserted = barrier();
    const release = barrier();
    const failing = t.db.prisma
      .$transaction(async (tx) => {
        await tx.carrierRate.create({
          data: { team_id: t.teamId, carrier_id: 'tx', carrier_name: 'Inside', service_id: 's', service_name: 'S', amount: 1 },
        });
        inserted.open();
        await release.passed;
        throw new Error('rolled back');
      })
      .catch((e: Error) => e.message);
    await inserted.passed;
    const seenP = t.db.prisma.carrierRate.findMany({ where: { team_id: t.teamId, carrier_id: 'tx' } });
    const resP = post(urlB, '/v1/ops/carrier-rates', {
      carrier_id: 'plain',
      carrier_name: 'Outside',
      service_id: 's',
      service_name: 'S',
      amount: 2,
    });
    if (t.db.provider === 'postgresql') await Promise.all([seenP, resP]);
    release.open();
    const [seen, res] = await Promise.all([seenP, resP]);
    expect(res.status).toBe(201);
    expect(await failing).toBe('rolled back');
    expect(seen).toHaveLength(0);
    const rows = await t.db.prisma.carrierRate.findMany({ where: { team_id: t.teamId, carrier_id: { in: ['tx', 'plain'] } } });
    expect(rows.map((r) => r.carrier_id)).toEqual(['plain']);
  });
});
