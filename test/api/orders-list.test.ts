import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import * as teams from '../../src/domain/teams/teams.js';
import { listOrders } from '../../src/domain/orders/list.js';

let w: World;
const o: Record<string, any> = {};

const LIST_FIELDS = [
  'id',
  'created_at',
  'closed_at',
  'cancelled_at',
  'merchant_team_name',
  'shop_name',
  'shop_type',
  'fulfillment_status',
  'payment_status',
  'priority',
  'order_number',
  'currency',
  'note',
  'shipping_method',
  'tags',
  'total_price',
  'customer_email',
  'customer_name',
  'customer_phone',
  'shipping_address_company',
  'shipping_address_address1',
  'shipping_address_address2',
  'shipping_address_city',
  'shipping_address_state',
  'shipping_address_country',
  'shipping_address_zip',
  'address_verified',
  'address_residential',
  'core_line_item_count',
  'unique_core_line_item_count',
  'fulfillment_count',
  'line_item_image_urls',
  'status',
];
const addr = (p: string) => ['name', 'company', 'address1', 'address2', 'city', 'state', 'country', 'zip', 'phone'].map((f) => `${p}_${f}`);
const GET_FIELDS = [
  'id',
  'order_number',
  'remote_id',
  'synced_at',
  'created_at',
  'updated_at',
  'closed_at',
  'cancelled_at',
  'merchant_team_id',
  'merchant_team_name',
  'team_id',
  'team_name',
  'fulfiller_team_id',
  'fulfiller_team_name',
  'shop_id',
  'shop_name',
  'shop_slug',
  'shop_type',
  'status',
  'fulfillment_status',
  'payment_status',
  'priority',
  'currency',
  'note',
  'shipping_method',
  'deliver_by',
  'line_item_hash',
  'tags',
  'total_price',
  'total_tax',
  'total_discount',
  'total_shipping',
  'current_shipping',
  'total_outstanding',
  'metadata',
  ...addr('shipping_address'),
  'shipping_latitude',
  'shipping_longitude',
  ...addr('billing_address'),
  'customer_email',
  'customer_name',
  'customer_phone',
  'carton_id',
  'carton_name',
  'carrier_integration_id',
  'carrier_integration_type',
  'carrier_integration_name',
  'carrier_id',
  'service_id',
  'rate_shop_name',
  'formatted_service',
  'package_preset_id',
  'package_preset_name',
  'lock_address',
  'address_verified',
  'address_residential',
  'address_verified_at',
  'address_hash',
  'address_verification_response',
  'is_fragile',
  'core_line_item_count',
  'unique_core_line_item_count',
  'tracking_count',
  'fulfillment_count',
  'line_item_image_urls',
  'config',
  'order_fulfillment_holds',
  'core_order_line_items',
  'original_order_line_items',
  'supported_actions',
];

beforeAll(async () => {
  w = await world();
  await w.product('A', { [w.east]: 100 });
  const mk = async (key: string, body: Record<string, unknown>, created: string) => {
    o[key] = await w.order({ line_items: [line('A', 1)], ...body });
    await w.t.db.prisma.order.update({
      where: { id: o[key].id },
      data: { created_at: new Date(created), updated_at: new Date(created.replace('2024', '2025')) },
    });
  };
  await mk('o1', { customer: { name: 'Alice Smith', email: 'alice@alpha.com' }, payment_status: 'PAID' }, '2024-01-10T12:00:00Z');
  await mk('o2', { customer: { name: 'Bob Jones', email: 'bob@beta.org' }, priority: 'HIGH' }, '2024-02-15T12:00:00Z');
  await mk(
    'o3',
    { customer: { name: 'Carol Aliceson', email: 'carol@gamma.net' }, priority: 'LOW', payment_status: 'PAID' },
    '2024-03-20T12:00:00Z',
  );
  await mk(
    'o4',
    { customer: { name: 'Dan', email: 'dan@delta.io' }, priority: 'CRITICAL', payment_status: 'PAID', order_number: 'WEB-9' },
    '2024-04-01T12:00:00Z',
  );
  await mk(
    'o5',
    { customer: { name: 'Eve', email: 'eve@epsilon.dev' }, payment_status: 'PAID', order_number: '#999' },
    '2024-05-01T12:00:00Z',
  );
  await w.t.db.prisma.order.update({
    where: { id: o.o3.id },
    data: { status: 'CLOSED', fulfillment_status: 'FULFILLED', updated_at: new Date('2025-03-20T12:00:00Z') },
  });
});
afterAll(() => w?.t.close());

const list = async (query: string) => {
  const res = await w.call('GET', `/v1/ops/orders/list?${query}`);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().data.map((r: any) => Object.keys(o).find((k) => o[k].id === r.id));
};
const bad = async (query: string, path: string) => {
  const res = await w.call('GET', `/v1/ops/orders/list?${query}`);
  expect(res.statusCode).toBe(400);
  expect(res.json().type).toBe('urn:fos:error:validation-failed');
  expect(res.json().errors.map((e: any) => e.path)).toContain(path);
};

describe('field sets', () => {
  it('list items carry exactly the spec projection; get-one every field group of 2.6', async () => {
    const res = await w.call('GET', '/v1/ops/orders/list');
    for (const item of res.json().data) expect(Object.keys(item).sort()).toEqual([...LIST_FIELDS].sort());
    const one = (await w.call('GET', `/v1/ops/orders/${o.o1.id}`)).json();
    expect(Object.keys(one).sort()).toEqual([...GET_FIELDS, 'cancel_reason'].sort()); // cancel_reason: issue 25 extension
    expect(Object.keys(one.metadata).sort()).toEqual(['bigcommerce', 'custom', 'meta_data', 'shopify']);
    expect(one.config).toMatchObject({
      require_pack_shot: false,
      show_unfulfilled_items_on_packing_list: true,
      tote_qa_enabled: false,
      address_verification_enabled: true,
      insurance_policy: { mode: 'none' },
    });
    // returned_quantity: the issue-10 extension on core lines (units on returns).
    expect(Object.keys(one.core_order_line_items[0]).sort()).toEqual([
      'core_draft_order_line_item_id',
      'created_at',
      'id',
      'image_url',
      'name',
      'order_id',
      'product_id',
      'remaining_quantity',
      'removed_quantity',
      'returned_quantity',
      'sku',
      'synced_at',
      'total_quantity',
      'unsynced_quantity',
      'updated_at',
    ]);
    expect(Object.keys(one.original_order_line_items[0]).length).toBe(14 + 7);
    expect(one).not.toHaveProperty('fulfillment_orders');
  });

  it('serves /v1/ops/orders like /v1/ops/orders/list', async () => {
    const a = await w.call('GET', '/v1/ops/orders?order_by=created_at&order=asc&limit=3');
    const b = await w.call('GET', '/v1/ops/orders/list?order_by=created_at&order=asc&limit=3');
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
  });
});

describe('list parameters', () => {
  it('sorts by created_at (default, desc), updated_at and numeric order_number', async () => {
    expect(await list('')).toEqual(['o5', 'o4', 'o3', 'o2', 'o1']);
    expect(await list('order=asc')).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect(await list('order_by=updated_at&order=asc')).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect(await list('order_by=order_number&order=asc')).toEqual(['o5', 'o1', 'o2', 'o3', 'o4']);
    expect(await list('order_by=order_number&order=desc')).toEqual(['o3', 'o2', 'o1', 'o5', 'o4']);
    await bad('order_by=total_price', 'query.order_by');
    await bad('order=up', 'query.order');
  });

  it('pages 0-based with meta', async () => {
    const res = await w.call('GET', '/v1/ops/orders/list?order=asc&limit=2&page=1');
    expect(res.json().meta).toEqual({
      page: 1,
      page_size: 2,
      start_index: 3,
      end_index: 4,
      has_next_page: true,
      next_cursor: expect.any(String),
      has_previous_page: true,
    });
    expect(res.json().data.map((r: any) => r.id)).toEqual([o.o3.id, o.o4.id]);
    await bad('limit=0', 'query.limit');
    await bad('limit=101', 'query.limit');
  });

  it('searches order-number prefixes with or without # and customer name/email, case-insensitively', async () => {
    expect(await list('search=ALI&order=asc')).toEqual(['o1', 'o3']);
    expect(await list('search=Alpha.COM')).toEqual(['o1']);
    expect(await list(`search=${encodeURIComponent('#100')}&order=asc`)).toEqual(['o1', 'o2', 'o3']);
    expect(await list('search=1002')).toEqual(['o2']);
    expect(await list('search=web-')).toEqual(['o4']);
    expect(await list(`search=${encodeURIComponent('#99')}`)).toEqual(['o5']);
    expect(await list('search=002')).toEqual([]); // a prefix, not a substring, of the number
    expect(await list('search=')).toHaveLength(5);
    // % and _ are literal on both databases (src/domain/search.ts), never wildcards.
    expect(await list(`search=${encodeURIComponent('b%b')}`)).toEqual([]);
    expect(await list(`search=${encodeURIComponent('b_b')}`)).toEqual([]);
    expect(await list(`search=${encodeURIComponent('bob@beta')}`)).toEqual(['o2']);
    await bad('search=ab', 'query.search');
    await bad(`search=${encodeURIComponent(' ab ')}`, 'query.search');
    await bad(`search=${encodeURIComponent('#1')}`, 'query.search');
  });

  it('filters by comma-separated status, payment_status and fulfillment_status', async () => {
    expect(await list('status=CLOSED')).toEqual(['o3']);
    expect(await list('status=OPEN,CLOSED&order=asc')).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect(await list('payment_status=PENDING')).toEqual(['o2']);
    expect(await list('fulfillment_status=FULFILLED')).toEqual(['o3']);
    expect(await list('fulfillment_status=UNFULFILLED&payment_status=PAID&order=asc')).toEqual(['o1', 'o4', 'o5']);
    await bad('status=OPEN,LOST', 'query.status');
    await bad('payment_status=FREE', 'query.payment_status');
    await bad('fulfillment_status=DONE', 'query.fulfillment_status');
  });

  it('filters by created and updated ranges (inclusive; a bare upper date covers the whole day)', async () => {
    expect(await list('created_at_min=2024-02-15T12:00:00Z&order=asc')).toEqual(['o2', 'o3', 'o4', 'o5']);
    expect(await list('created_at_max=2024-02-15&order=asc')).toEqual(['o1', 'o2']);
    expect(await list('created_at_max=2024-02-15T00:00:00Z')).toEqual(['o1']);
    expect(await list('created_at_min=2024-02-01&created_at_max=2024-03-31&order=asc')).toEqual(['o2', 'o3']);
    expect(await list(`created_at_min=${encodeURIComponent('2024-02-15T13:00:00+02:00')}&created_at_max=2024-02-15`)).toEqual(['o2']);
    expect(await list('updated_at_min=2025-04-01&order=asc')).toEqual(['o4', 'o5']);
    expect(await list('updated_at_max=2025-01-10')).toEqual(['o1']);
    await bad('created_at_min=yesterday', 'query.created_at_min');
    await bad('updated_at_max=2024-13-45', 'query.updated_at_max');
  });
});

describe('priority', () => {
  it('changes only priority and enqueues order.priority_changed', async () => {
    const before = (await w.call('GET', `/v1/ops/orders/${o.o1.id}`)).json();
    const res = await w.call('PATCH', `/v1/ops/orders/${o.o1.id}/priority`, { priority: 'CRITICAL' });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.priority).toBe('CRITICAL');
    const strip = (x: any) => ({ ...x, priority: undefined, updated_at: undefined });
    expect(strip(after)).toEqual(strip(before));
    expect((await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: o.o1.id } })).priority_rank).toBe(4);
    const events = await w.t.db.prisma.outboxEvent.findMany({ where: { kind: 'order.priority_changed' } });
    expect(events.map((e) => e.payload)).toEqual([
      { order_id: o.o1.id, order_number: o.o1.order_number, previous_priority: 'NORMAL', priority: 'CRITICAL' },
    ]);

    expect((await w.call('PATCH', `/v1/ops/orders/${o.o1.id}/priority`, { priority: 'URGENT' })).statusCode).toBe(400);
    expect((await w.call('PATCH', `/v1/ops/orders/${o.o1.id}/priority`, { priority: 'LOW', note: 'x' })).statusCode).toBe(400);
  });
});

describe('access', () => {
  it("answers 404 for another team's order on every order path", async () => {
    const other = await teams.createTeam(w.t.db, { name: 'Other 3PL', kind: 'FULFILLER' });
    const { token } = await w.t.key({ teamId: other.id, tier: 4 });
    expect((await w.call('GET', `/v1/ops/orders/${o.o1.id}`, undefined, token)).statusCode).toBe(404);
    expect((await w.call('PATCH', `/v1/ops/orders/${o.o1.id}/priority`, { priority: 'LOW' }, token)).statusCode).toBe(404);
    expect((await w.call('POST', `/v1/ops/orders/${o.o2.id}/mark-paid`, undefined, token)).statusCode).toBe(404);
    expect((await w.call('GET', '/v1/ops/orders/list', undefined, token)).json().data).toEqual([]);
    const missing = await w.call('GET', '/v1/ops/orders/0190aaaa-0000-7000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'urn:fos:error:not-found', title: 'Not Found' });
  });

  it('needs READ_ORDERS to read and WRITE_ORDERS to change; merchant keys are refused', async () => {
    const none = await w.t.key({ permissions: ['READ_PRODUCTS'], tier: 4 });
    const reader = await w.t.key({ permissions: ['READ_ORDERS'], tier: 4 });
    for (const path of ['/v1/ops/orders', '/v1/ops/orders/list', `/v1/ops/orders/${o.o1.id}`]) {
      const res = await w.call('GET', path, undefined, none.token);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('READ_ORDERS');
      expect((await w.call('GET', path, undefined, reader.token)).statusCode).toBe(200);
    }
    expect((await w.call('PATCH', `/v1/ops/orders/${o.o1.id}/priority`, { priority: 'LOW' }, reader.token)).statusCode).toBe(403);
    expect((await w.call('POST', `/v1/ops/orders/${o.o2.id}/mark-paid`, undefined, reader.token)).statusCode).toBe(403);
    const merchant = await w.t.merchant();
    expect((await w.call('GET', '/v1/ops/orders/list', undefined, merchant.token)).statusCode).toBe(403);
  });
});

describe('keyset cursor (meta.next_cursor)', () => {
  /** Walks a sort by cursor, `limit` per page; returns the keys in order and the pages' metas. */
  const walk = async (query: string, limit: number) => {
    const seen: string[] = [];
    const metas: any[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const res = await w.call('GET', `/v1/ops/orders/list?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      metas.push(body.meta);
      seen.push(...body.data.map((r: any) => Object.keys(o).find((k) => o[k].id === r.id)));
      cursor = body.meta.next_cursor;
      if (!cursor) break;
    }
    return { seen, metas };
  };

  it.each([
    'order_by=order_number&order=asc',
    'order_by=order_number&order=desc',
    'order_by=created_at&order=asc',
    'order_by=created_at&order=desc',
    'order_by=updated_at&order=desc',
    'order=desc',
    'payment_status=PAID&order_by=order_number&order=asc',
    'search=alice&order_by=created_at&order=asc',
  ])('%s: every page by cursor gives the same rows, in the same order, as one page', async (query) => {
    const all = await list(`${query}&limit=100`);
    for (const limit of [1, 2]) {
      const { seen, metas } = await walk(query, limit);
      expect(seen).toEqual(all);
      expect(metas.at(-1).next_cursor).toBeNull();
      expect(metas.at(-1).has_next_page).toBe(false);
      if (metas.length > 1) expect(metas[1].has_previous_page).toBe(true);
    }
  });

  it('a cursor of another sort, or not a cursor at all, is a 400 naming query.cursor', async () => {
    const first = (await w.call('GET', '/v1/ops/orders/list?order_by=created_at&limit=1')).json();
    expect(first.meta.next_cursor).toEqual(expect.any(String));
    await bad(`order_by=order_number&cursor=${first.meta.next_cursor}`, 'query.cursor');
    await bad('cursor=bm90LWEtY3Vyc29y', 'query.cursor');
    await bad('cursor=%3Cscript%3E', 'query.cursor');
    // forged: the right sort, values of the wrong type for their columns
    const { s: sort } = JSON.parse(Buffer.from(first.meta.next_cursor, 'base64url').toString());
    const forge = (v: unknown[]) => Buffer.from(JSON.stringify({ s: sort, v })).toString('base64url');
    await bad(`order_by=created_at&cursor=${forge(['2024-01-01', 'x'])}`, 'query.cursor');
    await bad(`order_by=created_at&cursor=${forge([{ d: 'not a date' }, 'x'])}`, 'query.cursor');
    await bad(`order_by=created_at&cursor=${forge([{ d: '2024-01-01T00:00:00Z' }, 5])}`, 'query.cursor');
    const numSort = JSON.parse(
      Buffer.from(
        (await w.call('GET', '/v1/ops/orders/list?order_by=order_number&limit=1')).json().meta.next_cursor,
        'base64url',
      ).toString(),
    );
    await bad(
      `order_by=order_number&cursor=${Buffer.from(JSON.stringify({ s: numSort.s, v: ['abc', 'x', 'y'] })).toString('base64url')}`,
      'query.cursor',
    );
  });
});

describe('driver page (store.ts orderListPage)', () => {
  // The common pages are one prepared statement through the driver on SQLite; a search or the
  // order_number sort, and PostgreSQL, go through Prisma. Both must give the same JSON.
  it.each([
    {},
    { order: 'asc' },
    { order_by: 'updated_at' },
    { order_by: 'updated_at', order: 'asc', limit: 2 },
    { page: 1, limit: 2 },
    { status: 'OPEN,CLOSED' },
    { payment_status: 'PAID', order: 'asc' },
    { fulfillment_status: 'FULFILLED' },
    { created_at_min: '2024-02-01', created_at_max: '2024-04-01' },
    { updated_at_min: '2025-02-15T12:00:00Z', order_by: 'updated_at' },
  ] as Record<string, unknown>[])('%o: the same page as through Prisma, and the same walk by cursor', async (extra) => {
    const team = w.t.teamId;
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const q = { page: 0, limit: 2, ...extra, ...(cursor ? { cursor } : {}) } as never;
      const [fast, prisma] = [await listOrders(w.t.db, team, q), await listOrders(w.t.db, team, q, { driver: false })];
      expect(JSON.parse(JSON.stringify(fast))).toEqual(JSON.parse(JSON.stringify(prisma)));
      cursor = fast.meta.next_cursor ?? undefined;
      if (!cursor) break;
    }
  });
});
