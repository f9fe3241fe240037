import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, line, world, type World } from './orders.fixtures.js';
import * as teams from '../../src/domain/teams/teams.js';

let w: World;
beforeAll(async () => {
  w = await world();
  await w.product('TENT-2P', { [w.east]: 10 });
  await w.product('STOVE', { [w.west]: 4 });
});
afterAll(() => w?.t.close());

const errorsOf = (res: { json(): any }) => res.json().errors as { path: string; message: string }[];

describe('create draft order', () => {
  it('creates through /v1/ops/draft-orders with defaults and computed totals', async () => {
    const res = await w.call('POST', '/v1/ops/draft-orders', {
      line_items: [{ sku: 'TENT-2P', quantity: 2, price: 199.5, applied_discount_amount: 20 }, line('STOVE', 1, 49)],
      shipping_address: ADDRESS,
      customer: { email: 'ada@example.com', name: 'Ada Lovelace', phone: null },
      tags: ['vip', 'vip', 'gift'],
      total_shipping: 7.5,
    });
    expect(res.statusCode).toBe(201);
    const d = res.json();
    expect(d).toMatchObject({
      status: 'OPEN',
      order_id: null,
      order_number: null,
      merchant_team_id: w.merchantId,
      fulfiller_team_id: w.t.teamId,
      shop_name: 'Manual orders',
      shop_type: 'MANUAL',
      priority: 'NORMAL',
      payment_status: 'PENDING',
      currency: 'USD',
      tags: ['vip', 'gift'],
      subtotal_price: 448,
      total_discount: 20,
      total_shipping: 7.5,
      total_price: 435.5,
      customer: { email: 'ada@example.com', name: 'Ada Lovelace', phone: null },
      metadata: { custom: [], shopify: [], meta_data: [], bigcommerce: [] },
    });
    expect(d.shipping_address).toEqual(ADDRESS);
    expect(d.line_items.map((l: any) => [l.sku, l.quantity, l.name])).toEqual([
      ['TENT-2P', 2, 'Product TENT-2P'],
      ['STOVE', 1, 'Product STOVE'],
    ]);
    expect(await w.t.db.prisma.draftOrderLineItem.count({ where: { draft_order_id: d.id } })).toBe(2);

    const got = await w.call('GET', `/v1/ops/draft-orders/${d.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(d);
  });

  it('creates through the spec path {base_url}/api/orders/draft-orders/create-draft-order with the same body', async () => {
    const res = await w.call('POST', '/v1/api/orders/draft-orders/create-draft-order', {
      merchant_team_id: w.merchantId,
      shop: { name: 'Acme Shopify', shop_type: 'SHOPIFY' },
      line_items: [line('TENT-2P', 1)],
      shipping_address: ADDRESS,
      priority: 'HIGH',
      payment_status: 'PAID',
      order_number: 'WEB-77',
      metadata: { shopify: [{ key: 'gid', value: '123' }] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      shop_name: 'Acme Shopify',
      shop_type: 'SHOPIFY',
      priority: 'HIGH',
      payment_status: 'PAID',
      order_number: 'WEB-77',
    });
    // The shop is found again by name, not duplicated.
    await w.call('POST', '/v1/api/orders/draft-orders/create-draft-order', {
      shop: { name: 'Acme Shopify', shop_type: 'SHOPIFY' },
      line_items: [line('STOVE', 1)],
      shipping_address: ADDRESS,
    });
    expect(await w.t.db.prisma.shop.count({ where: { merchant_team_id: w.merchantId, name: 'Acme Shopify' } })).toBe(1);
    // Only under {base_url} (…/v1), where the published document puts it (issue 35).
    const bare = await w.call('POST', '/api/orders/draft-orders/create-draft-order', {
      line_items: [line('STOVE', 1)],
      shipping_address: ADDRESS,
    });
    expect(bare.statusCode).toBe(404);
  });

  it.each([
    ['unknown field', { bogus: 1 }, 'body.bogus'],
    ['no line items', { line_items: [] }, 'body.line_items'],
    ['quantity 0', { line_items: [line('TENT-2P', 0)] }, 'body.line_items.0.quantity'],
    ['fractional quantity', { line_items: [line('TENT-2P', 1.5)] }, 'body.line_items.0.quantity'],
    ['missing price', { line_items: [{ sku: 'TENT-2P', quantity: 1 }] }, 'body.line_items.0.price'],
    ['bad priority', { priority: 'URGENT' }, 'body.priority'],
    ['bad payment status', { payment_status: 'REFUNDED' }, 'body.payment_status'],
    ['bad shop type', { shop: { name: 'X', shop_type: 'MYSPACE' } }, 'body.shop.shop_type'],
    ['unknown address field', { shipping_address: { ...ADDRESS, street: 'x' } }, 'body.shipping_address.street'],
    ['missing address1', { shipping_address: { ...ADDRESS, address1: undefined } }, 'body.shipping_address.address1'],
    ['bad currency', { currency: 'usd' }, 'body.currency'],
    ['bad deliver_by', { deliver_by: 'tomorrow' }, 'body.deliver_by'],
  ])('rejects %s with 400 naming the field', async (_label, patch, path) => {
    const res = await w.call('POST', '/v1/ops/draft-orders', { line_items: [line('TENT-2P', 1)], shipping_address: ADDRESS, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('urn:fos:error:validation-failed');
    expect(errorsOf(res).map((e) => e.path)).toContain(path);
  });

  it('names every unknown product or SKU line', async () => {
    const res = await w.call('POST', '/v1/ops/draft-orders', {
      line_items: [
        line('TENT-2P', 1),
        line('NOPE', 1),
        { product_id: '0190aaaa-0000-7000-8000-000000000000', quantity: 1, price: 1 },
        { quantity: 1, price: 1 },
      ],
      shipping_address: ADDRESS,
    });
    expect(res.statusCode).toBe(400);
    expect(errorsOf(res).map((e) => e.path)).toEqual([
      'body.line_items.1.sku',
      'body.line_items.2.product_id',
      'body.line_items.3.product_id',
    ]);
    expect(res.json().detail).toContain('NOPE');
  });

  it("only reaches the merchant's own products and delegated merchants", async () => {
    const other = await teams.createTeam(w.t.db, { name: 'Other merchant', kind: 'MERCHANT' });
    await w.product('FOREIGN', { [w.east]: 5 }, { merchantId: other.id });
    const foreign = await w.call('POST', '/v1/ops/draft-orders', { line_items: [line('FOREIGN', 1)], shipping_address: ADDRESS });
    expect(foreign.statusCode).toBe(400);
    expect(errorsOf(foreign)[0].path).toBe('body.line_items.0.sku');

    const notDelegated = await w.call('POST', '/v1/ops/draft-orders', {
      merchant_team_id: other.id,
      line_items: [line('FOREIGN', 1)],
      shipping_address: ADDRESS,
    });
    expect(notDelegated.statusCode).toBe(400);
    expect(errorsOf(notDelegated)[0].path).toBe('body.merchant_team_id');
  });

  it('rejects a discount above the line total and a used order number', async () => {
    const disc = await w.call('POST', '/v1/ops/draft-orders', {
      line_items: [{ sku: 'TENT-2P', quantity: 1, price: 5, applied_discount_amount: 6 }],
      shipping_address: ADDRESS,
    });
    expect(disc.statusCode).toBe(400);
    expect(errorsOf(disc)[0].path).toBe('body.line_items.0.applied_discount_amount');

    await w.order({ line_items: [line('TENT-2P', 1)], order_number: 'DUP-1', payment_status: 'PAID' });
    const dup = await w.call('POST', '/v1/ops/draft-orders', {
      line_items: [line('TENT-2P', 1)],
      shipping_address: ADDRESS,
      order_number: 'DUP-1',
    });
    expect(dup.statusCode).toBe(409);
  });

  it('requires merchant_team_id once several merchants are delegated', async () => {
    const t2 = await teams.createTeam(w.t.db, { name: 'Second merchant', kind: 'MERCHANT' });
    await teams.createDelegation(w.t.db, { merchant_team_id: t2.id, fulfiller_team_id: w.t.teamId });
    try {
      const res = await w.call('POST', '/v1/ops/draft-orders', { line_items: [line('TENT-2P', 1)], shipping_address: ADDRESS });
      expect(res.statusCode).toBe(400);
      expect(errorsOf(res)[0].path).toBe('body.merchant_team_id');
      const ok = await w.call('POST', '/v1/ops/draft-orders', {
        merchant_team_id: w.merchantId,
        line_items: [line('TENT-2P', 1)],
        shipping_address: ADDRESS,
      });
      expect(ok.statusCode).toBe(201);
    } finally {
      await w.t.db.prisma.fulfillmentDelegation.deleteMany({ where: { merchant_team_id: t2.id } });
    }
  });
});

describe('list and get draft orders', () => {
  it('lists newest first, filters by status, pages', async () => {
    const all = await w.call('GET', '/v1/ops/draft-orders?limit=100');
    expect(all.statusCode).toBe(200);
    const rows = all.json().data as any[];
    expect(rows.length).toBeGreaterThan(2);
    const times = rows.map((r) => r.created_at);
    expect(times).toEqual([...times].sort().reverse());

    const converted = await w.call('GET', '/v1/ops/draft-orders?status=CONVERTED');
    expect(converted.json().data.length).toBeGreaterThanOrEqual(1);
    expect(converted.json().data.every((d: any) => d.status === 'CONVERTED' && d.order_id)).toBe(true);

    const page = await w.call('GET', '/v1/ops/draft-orders?limit=1&page=1&order=asc');
    expect(page.json().meta).toMatchObject({
      page: 1,
      page_size: 1,
      start_index: 2,
      end_index: 2,
      has_previous_page: true,
      has_next_page: true,
    });
    expect(page.json().data[0].id).toBe([...rows].reverse()[1].id);

    expect((await w.call('GET', '/v1/ops/draft-orders?status=DONE')).statusCode).toBe(400);
  });

  it("answers 404 for an unknown draft and for another team's draft", async () => {
    expect((await w.call('GET', '/v1/ops/draft-orders/0190aaaa-0000-7000-8000-000000000000')).statusCode).toBe(404);
    const otherTeam = await teams.createTeam(w.t.db, { name: 'Other 3PL', kind: 'FULFILLER' });
    const otherKey = await w.t.key({ teamId: otherTeam.id, tier: 4 });
    const mine = (await w.call('GET', '/v1/ops/draft-orders?limit=1')).json().data[0];
    const res = await w.call('GET', `/v1/ops/draft-orders/${mine.id}`, undefined, otherKey.token);
    expect(res.statusCode).toBe(404);
    expect((await w.call('POST', `/v1/ops/draft-orders/${mine.id}/convert`, undefined, otherKey.token)).statusCode).toBe(404);
  });
});

describe('permissions', () => {
  it('needs WRITE_ORDERS to create or convert and READ_ORDERS to read, and a fulfiller key', async () => {
    const reader = await w.t.key({ permissions: ['READ_ORDERS'], tier: 4 });
    const writer = await w.t.key({ permissions: ['WRITE_ORDERS'], tier: 4 });
    const body = { line_items: [line('TENT-2P', 1)], shipping_address: ADDRESS };
    for (const path of ['/v1/ops/draft-orders', '/v1/api/orders/draft-orders/create-draft-order']) {
      const res = await w.call('POST', path, body, reader.token);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('WRITE_ORDERS');
    }
    const d = await w.draft(body);
    expect((await w.call('POST', `/v1/ops/draft-orders/${d.id}/convert`, undefined, reader.token)).statusCode).toBe(403);
    expect((await w.call('GET', '/v1/ops/draft-orders', undefined, writer.token)).statusCode).toBe(403);
    expect((await w.call('GET', `/v1/ops/draft-orders/${d.id}`, undefined, reader.token)).statusCode).toBe(200);
    expect((await w.call('POST', '/v1/api/orders/draft-orders/create-draft-order', body, writer.token)).statusCode).toBe(201);

    const merchant = await w.t.merchant();
    expect((await w.call('GET', '/v1/ops/draft-orders', undefined, merchant.token)).statusCode).toBe(403);
  });
});
