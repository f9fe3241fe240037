import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { lockMs } from '../../src/domain/fulfillment/locks.js';

// Fulfillment orders: list / get / accept, and locks (spec 2.11, 3.2, 4.6 steps 1b-3).

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown, tok = token) =>
  t.call(method, url, { token: tok, ...(body !== undefined ? { body } : {}) });

describe('fulfillment orders', () => {
  it('lists with order_id / status / warehouse filters and meta.total', async () => {
    const a = await fulfillmentFixture(t, { lines: [{ quantity: 2 }, { quantity: 1 }] });
    const b = await fulfillmentFixture(t, { status: 'ACCEPTED' });
    const res = await call('GET', `/v1/ops/fulfillment-orders?order_id=${a.order.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toMatchObject({
      page: 0,
      page_size: 20,
      total: 1,
      start_index: 1,
      end_index: 1,
      has_next_page: false,
      has_previous_page: false,
    });
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ id: a.fo.id, order_id: a.order.id, status: 'PENDING', request_status: 'UNSUBMITTED' });

    const accepted = (await call('GET', '/v1/ops/fulfillment-orders?status=ACCEPTED,IN_PROGRESS')).json();
    expect(accepted.data.map((f: any) => f.id)).toContain(b.fo.id);
    expect(accepted.data.map((f: any) => f.id)).not.toContain(a.fo.id);

    const byWarehouse = (await call('GET', `/v1/ops/fulfillment-orders?warehouse_id=${a.warehouseId}&limit=1&page=1`)).json();
    expect(byWarehouse.meta).toMatchObject({ page: 1, page_size: 1, total: 2, has_previous_page: true });
    expect(byWarehouse.data).toHaveLength(1);

    const bad = await call('GET', '/v1/ops/fulfillment-orders?status=NOPE');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('query.status');
  });

  it('gets one with line items, shipping address, lock and names', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ sku: 'GET-1', quantity: 3 }] });
    const res = await call('GET', `/v1/ops/fulfillment-orders/${f.fo.id}`);
    expect(res.statusCode).toBe(200);
    const fo = res.json();
    expect(fo).toMatchObject({
      id: f.fo.id,
      order_id: f.order.id,
      order_number: f.order.order_number,
      status: 'PENDING',
      warehouse_id: f.warehouseId,
      warehouse_name: 'Main Warehouse',
      fulfillment_status: 'UNFULFILLED',
      total_quantity: 3,
      remaining_quantity: 3,
      shipping_address_name: 'Grace Hopper',
      shipping_address_city: 'Arlington',
      shipping_address_country: 'US',
      shipping_address_address2: null,
      lock: null,
      merchant_team_id: f.merchantTeamId,
    });
    expect(fo.line_items).toEqual([
      expect.objectContaining({
        id: f.foLines[0].id,
        sku: 'GET-1',
        product_id: f.products[0].id,
        quantity: 3,
        remaining_quantity: 3,
        fulfilled_quantity: 0,
        order_line_item_id: f.orderLines[0].id,
      }),
    ]);
    expect(fo.created_at).toMatch(/Z$/);
  });

  it('accept: PENDING -> ACCEPTED, idempotent, 409 once fulfilled', async () => {
    const f = await fulfillmentFixture(t);
    const res = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/accept`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ACCEPTED', request_status: 'ACCEPTED' });
    const again = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/accept`);
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('ACCEPTED');

    const done = await fulfillmentFixture(t, { status: 'FULFILLED' });
    const refused = await call('POST', `/v1/ops/fulfillment-orders/${done.fo.id}/accept`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().type).toBe('urn:fos:error:conflict');
  });

  it('answers 404 for another team and 403 without the permission', async () => {
    const f = await fulfillmentFixture(t);
    const otherTeam = await t.db.prisma.team.create({ data: { name: 'Other 3PL', kind: 'FULFILLER' } });
    const other = await t.key({ teamId: otherTeam.id });
    expect((await call('GET', `/v1/ops/fulfillment-orders/${f.fo.id}`, undefined, other.token)).statusCode).toBe(404);
    expect(
      (await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'x', timeout_minutes: 5 }, other.token)).statusCode,
    ).toBe(404);
    const list = (await call('GET', '/v1/ops/fulfillment-orders', undefined, other.token)).json();
    expect(list.meta.total).toBe(0);

    const reader = await t.key({ permissions: ['READ_FULFILLMENTS'] });
    expect((await call('GET', `/v1/ops/fulfillment-orders/${f.fo.id}`, undefined, reader.token)).statusCode).toBe(200);
    const denied = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/accept`, undefined, reader.token);
    expect(denied.statusCode).toBe(403);
    const merchant = await t.merchant();
    expect((await call('GET', '/v1/ops/fulfillment-orders', undefined, merchant.token)).statusCode).toBe(403);
  });
});

describe('locks', () => {
  it('locks an ACCEPTED order (-> IN_PROGRESS), lets the owner extend, refuses others with lock-held', async () => {
    const f = await fulfillmentFixture(t, { status: 'ACCEPTED' });
    const url = `/v1/ops/fulfillment-orders/${f.fo.id}/lock`;
    const before = Date.now();
    const res = await call('POST', url, { lock_owner: 'packer-1', timeout_minutes: 30 });
    expect(res.statusCode).toBe(200);
    const lock = res.json();
    expect(lock).toEqual({ success: true, lock_owner: 'packer-1', expires_at: expect.stringMatching(/Z$/) });
    const expires = Date.parse(lock.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);

    const fo = (await call('GET', `/v1/ops/fulfillment-orders/${f.fo.id}`)).json();
    expect(fo).toMatchObject({
      status: 'IN_PROGRESS',
      request_status: 'ACCEPTED',
      lock: { lock_owner: 'packer-1', expires_at: lock.expires_at },
    });

    const other = await call('POST', url, { lock_owner: 'packer-2', timeout_minutes: 5 });
    expect(other.statusCode).toBe(409);
    expect(other.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(other.json()).toMatchObject({
      type: 'urn:fos:error:lock-held',
      status: 409,
      lock_owner: 'packer-1',
      expires_at: lock.expires_at,
    });
    expect(other.json().detail).toContain(
      `Fulfillment order ${f.fo.id} (order ${f.order.order_number}) is locked by "packer-1" until ${lock.expires_at}.`,
    );

    const extended = await call('POST', url, { lock_owner: 'packer-1', timeout_minutes: 60 });
    expect(extended.statusCode).toBe(200);
    expect(Date.parse(extended.json().expires_at)).toBeGreaterThan(expires);
    const outbox = await t.db.prisma.outboxEvent.count({ where: { kind: 'fulfillment_order.locked' } });
    expect(outbox).toBeGreaterThanOrEqual(2);
  });

  it('treats an expired lock as free', async () => {
    const f = await fulfillmentFixture(t, { status: 'IN_PROGRESS' });
    await t.db.prisma.fulfillmentOrder.update({
      where: { id: f.fo.id },
      data: { lock_owner: 'gone-home', lock_expires_at: new Date(Date.now() - 1000) },
    });
    expect((await call('GET', `/v1/ops/fulfillment-orders/${f.fo.id}`)).json().lock).toBeNull();
    const res = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'night-shift', timeout_minutes: 10 });
    expect(res.statusCode).toBe(200);
    expect(res.json().lock_owner).toBe('night-shift');
  });

  it('refuses PENDING and FULFILLED orders with a conflict naming the status', async () => {
    const pending = await fulfillmentFixture(t);
    const res = await call('POST', `/v1/ops/fulfillment-orders/${pending.fo.id}/lock`, { lock_owner: 'a', timeout_minutes: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().type).toBe('urn:fos:error:conflict');
    expect(res.json().detail).toContain('PENDING');
    const done = await fulfillmentFixture(t, { status: 'FULFILLED' });
    const res2 = await call('POST', `/v1/ops/fulfillment-orders/${done.fo.id}/lock`, { lock_owner: 'a', timeout_minutes: 5 });
    expect(res2.statusCode).toBe(409);
    expect(res2.json().detail).toContain('FULFILLED');
    const row = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: pending.fo.id } });
    expect(row.lock_owner).toBeNull();
  });

  it('refuses an order on hold (on-hold) and leaves it unlocked', async () => {
    const f = await fulfillmentFixture(t, { status: 'ACCEPTED', hold: true });
    const res = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'a', timeout_minutes: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().type).toBe('urn:fos:error:on-hold');
    const row = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(row).toMatchObject({ lock_owner: null, status: 'ACCEPTED' });
  });

  it('validates the body', async () => {
    const f = await fulfillmentFixture(t, { status: 'ACCEPTED' });
    const url = `/v1/ops/fulfillment-orders/${f.fo.id}/lock`;
    for (const body of [
      { lock_owner: '', timeout_minutes: 5 },
      { lock_owner: 'a', timeout_minutes: 0 },
      { lock_owner: 'a', timeout_minutes: -0.5 },
      { lock_owner: 'a', timeout_minutes: '5' },
      { lock_owner: 'a', timeout_minutes: 1441 },
      { lock_owner: 'a' },
      { lock_owner: 'a', timeout_minutes: 5, extra: 1 },
      { lock_owner: 'x'.repeat(201), timeout_minutes: 5 },
    ]) {
      const res = await call('POST', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('urn:fos:error:validation-failed');
    }
  });

  it('takes timeout_minutes as a number: a fraction is rounded up to whole seconds (issue 35)', async () => {
    for (const [minutes, seconds] of [
      [0.5, 30],
      [0.1, 6],
      [0.001, 1],
      [1.25, 75],
    ] as const) {
      const f = await fulfillmentFixture(t, { status: 'ACCEPTED' });
      const before = Date.now();
      const res = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'a', timeout_minutes: minutes });
      const after = Date.now();
      expect(res.statusCode, res.body).toBe(200);
      const expires = Date.parse(res.json().expires_at);
      expect(expires, String(minutes)).toBeGreaterThanOrEqual(before + seconds * 1000);
      expect(expires, String(minutes)).toBeLessThanOrEqual(after + seconds * 1000);
      const row = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
      expect(row.lock_expires_at!.getTime()).toBe(expires);
    }
    expect(lockMs(0.1)).toBe(6000);
    expect(lockMs(1 / 120)).toBe(1000);
  });

  it('release: holder only', async () => {
    const f = await fulfillmentFixture(t, { status: 'ACCEPTED' });
    const base = `/v1/ops/fulfillment-orders/${f.fo.id}`;
    expect((await call('POST', `${base}/release`, { lock_owner: 'nobody' })).statusCode).toBe(409);
    await call('POST', `${base}/lock`, { lock_owner: 'alice', timeout_minutes: 5 });
    const wrong = await call('POST', `${base}/release`, { lock_owner: 'bob' });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ type: 'urn:fos:error:lock-held', lock_owner: 'alice' });
    const ok = await call('POST', `${base}/release`, { lock_owner: 'alice' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, lock_owner: null, expires_at: null });
    const fo = (await call('GET', base)).json();
    expect(fo).toMatchObject({ lock: null, status: 'IN_PROGRESS' });
    expect((await call('POST', `${base}/lock`, { lock_owner: 'bob', timeout_minutes: 5 })).statusCode).toBe(200);
  });
});
