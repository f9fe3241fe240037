import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import type { Db } from '../../src/db/types.js';
import { buildApp } from '../../src/server/app.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture, type Fixture } from '../helpers/fixtures.js';

// Label void (POST /v1/ops/packages/{id}/label/void): refund_status SUBMITTED, voided_at, relabel
// replaces the voided label, shipping never billed for it; a void racing a fulfill over two real
// servers (own pool on PostgreSQL) leaves exactly one winner.

let t: TestApp;
let token: string;
let merchantTeamId: string;
let urlA: string;
let urlB: string;
let appB: FastifyInstance;
let dbB: Db;
const CARD = {
  id: 'rc_1',
  name: 'Standard',
  version_id: 'v1',
  semantic_version: '1.0.0',
  shipping: { fee_per_package: 1.5, markup_percent: 10 },
};

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchantTeamId = (await t.merchant({ rate_card: CARD })).teamId;
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

async function post(base: string, path: string, body?: unknown, key = token) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-access-token': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const LABEL = { label_url: 'https://l.example/x.pdf', carrier: 'UPS', service: 'Ground', cost: 5, cost_currency: 'USD' };

async function labelled(f: Fixture, tracking: string) {
  const p = await post(urlA, '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  const l = await post(urlA, `/v1/ops/packages/${p.body.id}/label`, { ...LABEL, tracking_number: tracking });
  expect(l.status, JSON.stringify(l.body)).toBe(200);
  return p.body.id as string;
}

const voidEvents = async (packageId: string) =>
  (await t.db.prisma.outboxEvent.findMany({ where: { kind: 'package.label_voided' } })).filter(
    (e) => (e.payload as any).package_id === packageId,
  );

describe('label void', () => {
  it('voids, refuses a second void, relabels, then fulfills and bills only the new label', async () => {
    const f = await fulfillmentFixture(t, { merchantTeamId, lines: [{ quantity: 1, onHand: 5 }], status: 'ACCEPTED' });
    const id = await labelled(f, 'VOIDME0001');
    const v = await post(urlA, `/v1/ops/packages/${id}/label/void`);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(v.body).toMatchObject({ id, status: 'PENDING', shipment_status: null });
    expect(v.body.shipping_label).toMatchObject({ tracking_code: 'VOIDME0001', refund_status: 'SUBMITTED' });
    expect(new Date(v.body.shipping_label.voided_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const events = await voidEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ tracking_code: 'VOIDME0001', refund_status: 'SUBMITTED', price: 5 });

    const again = await post(urlA, `/v1/ops/packages/${id}/label/void`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('already voided');

    // A voided label cannot be fulfilled.
    await post(urlA, `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 10 });
    expect((await post(urlA, `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' })).status).toBe(409);

    const re = await post(urlA, `/v1/ops/packages/${id}/label`, { ...LABEL, cost: 7, tracking_number: 'RELABEL0002' });
    expect(re.status, JSON.stringify(re.body)).toBe(200);
    expect(re.body.shipping_label).toMatchObject({ tracking_code: 'RELABEL0002', refund_status: null, voided_at: null });
    expect(await t.db.prisma.shippingLabel.count({ where: { package_id: id } })).toBe(1);

    const done = await post(urlA, `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const charges = await t.db.prisma.charge.findMany({ where: { fulfillment_id: done.body.fulfillment.id, category: 'SHIPPING' } });
    expect(charges).toHaveLength(1);
    expect(charges[0].name).toContain('RELABEL0002');
    expect(charges[0].original_amount).toBe(7);

    const late = await post(urlA, `/v1/ops/packages/${id}/label/void`);
    expect(late.status).toBe(409);
    expect(late.body.detail).toContain('FULFILLED');
  });

  it("refuses a package without a label, and another team's package is a 404", async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1, onHand: 5 }], status: 'ACCEPTED' });
    const p = await post(urlA, '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
    });
    const none = await post(urlA, `/v1/ops/packages/${p.body.id}/label/void`);
    expect(none.status).toBe(409);
    expect(none.body.detail).toContain('no shipping label');
    expect((await post(urlA, '/v1/ops/packages/00000000-0000-7000-8000-000000000000/label/void')).status).toBe(404);
    const reader = await t.key({ permissions: ['READ_FULFILLMENTS'] });
    expect((await post(urlA, `/v1/ops/packages/${p.body.id}/label/void`, undefined, reader.token)).status).toBe(403);
  });

  it('a void racing a fulfill: exactly one wins, and the state matches the winner', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const f = await fulfillmentFixture(t, { merchantTeamId, lines: [{ quantity: 1, onHand: 5 }], status: 'ACCEPTED' });
      await post(urlA, `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 10 });
      const id = await labelled(f, `RACE${round}${Date.now()}`);
      const [voided, fulfilled] = await Promise.all(
        round % 2
          ? [post(urlA, `/v1/ops/packages/${id}/label/void`), post(urlB, `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' })]
          : [post(urlB, `/v1/ops/packages/${id}/label/void`), post(urlA, `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' })],
      );
      expect([voided.status, fulfilled.status].sort(), JSON.stringify([voided.body, fulfilled.body])).toEqual([200, 409]);
      const pkg = await t.db.prisma.package.findUniqueOrThrow({ where: { id }, include: { shipping_label: true } });
      const shipping = await t.db.prisma.charge.count({ where: { category: 'SHIPPING', shipping_label_id: pkg.shipping_label!.id } });
      if (voided.status === 200) {
        outcomes.add('void');
        expect(pkg).toMatchObject({ status: 'PENDING', shipment_status: null });
        expect(pkg.shipping_label).toMatchObject({ refund_status: 'SUBMITTED' });
        expect(await t.db.prisma.fulfillment.count({ where: { package_id: id } })).toBe(0);
        expect(shipping).toBe(0);
        expect(await voidEvents(id)).toHaveLength(1);
      } else {
        outcomes.add('fulfill');
        expect(pkg).toMatchObject({ status: 'FULFILLED', shipment_status: 'LABEL_PRINTED' });
        expect(pkg.shipping_label).toMatchObject({ refund_status: null, voided_at: null });
        expect(await t.db.prisma.fulfillment.count({ where: { package_id: id } })).toBe(1);
        expect(shipping).toBe(1);
        expect(await voidEvents(id)).toHaveLength(0);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});
