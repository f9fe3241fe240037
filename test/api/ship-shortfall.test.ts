import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture, type Fixture } from '../helpers/fixtures.js';

// Issue 34: a package fulfills without a lock of the caller's (locked for the fulfill, released),
// the spec's lock rule still holds for locked_by; short units (a short pack scan) are never packed
// or shipped until split off (docs/fulfillment.md "Short units never ship").

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
const LABEL = {
  label_url: 'https://labels.example/l.pdf',
  tracking_number: 'TRK1',
  carrier: 'USPS',
  service: 'Priority',
  cost: 7.1,
  cost_currency: 'USD',
};
const foPath = (f: Fixture) => `/v1/ops/fulfillment-orders/${f.fo.id}`;

async function packed(f: Fixture, quantities: number[], label = true) {
  const res = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    package_line_items: quantities.map((q, i) => ({ sku: f.foLines[i].sku, quantity: q })).filter((l) => l.quantity > 0),
  });
  expect(res.statusCode, res.body).toBe(201);
  if (label) expect((await call('POST', `/v1/ops/packages/${res.json().id}/label`, LABEL)).statusCode).toBe(200);
  return res.json();
}

describe('fulfill without locked_by', () => {
  it('locks for the fulfill and releases: the package ships, the order holds no lock', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const p = await packed(f, [2]);
    const res = await call('POST', `/v1/ops/packages/${p.id}/fulfill`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'FULFILLED', fulfillment_order: { status: 'FULFILLED' } });
    const fo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(fo).toMatchObject({ status: 'FULFILLED', lock_owner: null, lock_expires_at: null });
  });

  it("still refuses when someone else holds the lock, and keeps the spec's rule for locked_by", async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const p = await packed(f, [1]);
    expect((await call('POST', `${foPath(f)}/lock`, { lock_owner: 'station-4', timeout_minutes: 15 })).statusCode).toBe(200);
    const other = await call('POST', `/v1/ops/packages/${p.id}/fulfill`, {});
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ lock_owner: 'station-4' });
    const wrong = await call('POST', `/v1/ops/packages/${p.id}/fulfill`, { locked_by: 'someone' });
    expect(wrong.statusCode).toBe(409);
    expect((await call('POST', `${foPath(f)}/release`, { lock_owner: 'station-4' })).statusCode).toBe(200);
    // Not locked and locked_by given: the spec's rule, lock it first.
    const unlocked = await call('POST', `/v1/ops/packages/${p.id}/fulfill`, { locked_by: 'station-4' });
    expect(unlocked.statusCode).toBe(409);
    expect(unlocked.json().detail).toContain('lock it first');
    const fo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(fo.status).toBe('IN_PROGRESS'); // the lock started it; nothing shipped
    expect(fo.lock_expires_at === null || fo.lock_expires_at.getTime() <= Date.now()).toBe(true);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).status).toBe('PENDING');
  });
});

describe('short units never ship', () => {
  it('a short pack scan leaves the units out of the box, refuses a package of them, and split-shortfall lets the rest ship', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }, { quantity: 1 }], status: 'ACCEPTED' });
    const sku = f.foLines[0].sku!;
    const short = await call('POST', `${foPath(f)}/pack-scans`, { barcode: sku, quantity: 2, short: true });
    expect(short.statusCode, short.body).toBe(200);
    expect(short.json().scan).toMatchObject({ short: true, quantity: 2, sku });
    expect(short.json().lines[0]).toMatchObject({ needed: 1, short: 2, remaining: 1 });
    expect((await t.db.prisma.fulfillmentOrderLineItem.findUniqueOrThrow({ where: { id: f.foLines[0].id } })).short_quantity).toBe(2);
    expect((await call('GET', foPath(f))).json().line_items[0]).toMatchObject({ short_quantity: 2, remaining_quantity: 3 });

    // More than was found cannot be scanned, nor packed through POST /packages.
    expect((await call('POST', `${foPath(f)}/pack-scans`, { barcode: sku, quantity: 2 })).statusCode).toBe(409);
    const tooMany = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      package_line_items: [{ sku, quantity: 2 }],
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().detail).toContain('2 recorded short');

    // A package made before the shortfall was recorded holds the missing units: fulfill refuses it.
    const g = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const early = await packed(g, [2]);
    await t.db.prisma.fulfillmentOrderLineItem.update({ where: { id: g.foLines[0].id }, data: { short_quantity: 1 } });
    const refused = await call('POST', `/v1/ops/packages/${early.id}/fulfill`);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({
      sku: g.foLines[0].sku,
      order_number: g.order.order_number,
      short_quantity: 1,
      found_quantity: 1,
    });
    expect(refused.json().detail).toContain(`order ${g.order.order_number} is short 1`);
    const gfo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: g.fo.id }, include: { line_items: true } });
    expect(gfo).toMatchObject({ status: 'ACCEPTED', lock_owner: null });
    expect(gfo.line_items[0].remaining_quantity).toBe(2);

    // The found units are packed; split-shortfall moves the 2 short units to a new PENDING order; the rest ships.
    expect((await call('POST', `${foPath(f)}/pack-scans`, { barcode: sku })).statusCode).toBe(200);
    expect((await call('POST', `${foPath(f)}/pack-scans`, { barcode: f.foLines[1].sku })).statusCode).toBe(200);
    const box = await call('POST', `${foPath(f)}/pack`, {});
    expect(box.statusCode, box.body).toBe(201);
    expect((await call('POST', `/v1/ops/packages/${box.json().id}/label`, LABEL)).statusCode).toBe(200);
    const split = await call('POST', `${foPath(f)}/split-shortfall`);
    expect(split.statusCode, split.body).toBe(200);
    expect(split.json().split).toMatchObject({
      status: 'PENDING',
      remaining_quantity: 2,
      line_items: [{ sku, quantity: 2, short_quantity: 0 }],
    });
    expect(split.json().original.line_items.map((l: any) => [l.sku, l.remaining_quantity, l.short_quantity])).toEqual([
      [sku, 1, 0],
      [f.foLines[1].sku, 1, 0],
    ]);
    expect((await call('POST', `${foPath(f)}/split-shortfall`)).statusCode).toBe(409); // nothing short any more
    const shipped = await call('POST', `/v1/ops/packages/${box.json().id}/fulfill`);
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().fulfillment_order.status).toBe('FULFILLED');
    const rest = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({
      where: { id: split.json().split.id },
      include: { line_items: true },
    });
    expect(rest).toMatchObject({ status: 'PENDING', order_id: f.order.id });
    expect(rest.line_items.map((l) => [l.sku, l.remaining_quantity])).toEqual([[sku, 2]]);
  });
});
