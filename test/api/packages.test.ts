import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture, type Fixture } from '../helpers/fixtures.js';
import { PackageSchema } from '../../src/contract/packages.js';

// Packages: create (spec 4.6 step 4), idempotency, list / get, PATCH (spec 4.7).

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  t.call(method, url, { token, headers, ...(body !== undefined ? { body } : {}) });

/** The spec's create body (4.6): fulfillment_order_id, name, weight, units, dimensions, rate_strategy, carton, lines. */
const specBody = (f: Fixture, quantities: number[] = f.foLines.map((l) => l.quantity)) => ({
  fulfillment_order_id: f.fo.id,
  name: 'Box 1',
  weight: 1200,
  weight_unit: 'G',
  length: 300,
  width: 200,
  height: 150,
  measurement_unit: 'MM',
  rate_strategy: 'CHEAPEST',
  carton_id: 'carton-m',
  package_line_items: f.foLines.map((l, i) => ({ sku: l.sku, quantity: quantities[i], product_id: l.product_id })),
});

describe('create', () => {
  it('creates a package with every Package 2.7 field', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }, { quantity: 1 }], status: 'ACCEPTED' });
    const res = await call('POST', '/v1/ops/packages', specBody(f));
    expect(res.statusCode).toBe(201);
    const p = res.json();
    for (const field of Object.keys(PackageSchema.properties)) expect(p, field).toHaveProperty(field);
    expect(p).toMatchObject({
      status: 'PENDING',
      type: 'FULFILLMENT_ORDER',
      name: 'Box 1',
      fulfillment_order_id: f.fo.id,
      order_id: f.order.id,
      weight: 1200,
      weight_unit: 'G',
      length: 300,
      width: 200,
      height: 150,
      measurement_unit: 'MM',
      carton_id: 'carton-m',
      tracking_number: null,
      shipping_label: null,
      fulfillment: null,
      shipping_label_id: null,
      shipment_status: null,
      rate_error_data: null,
      total_item_quantity: 3,
      unique_line_item_count: 2,
      total_customs_value: 37.5,
      warehouse_id: f.warehouseId,
      warehouse_name: 'Main Warehouse',
      merchant_team_id: f.merchantTeamId,
      fulfiller_team_id: t.teamId,
      from_address_name: 'Main Warehouse',
      from_address_address1: '500 Dock St',
      from_address_city: 'Reno',
      from_address_country: 'US',
      to_address_name: 'Grace Hopper',
      to_address_company: 'Navy Yard',
      to_address_city: 'Arlington',
      to_address_zip: '22201',
      to_address_email: 'grace@example.com',
      to_address_address2: null,
      idempotency_key: null,
    });
    expect(p.line_item_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(p.config).toMatchObject({
      incoterm: 'FAS',
      delivery_confirmation: 'NO_SIGNATURE',
      insurance_policy: { mode: 'none' },
      require_pack_shot: false,
    });
    expect(p.package_line_items).toHaveLength(2);
    expect(p.package_line_items[0]).toMatchObject({
      package_id: p.id,
      sku: f.foLines[0].sku,
      product_id: f.products[0].id,
      quantity: 2,
      core_fulfillment_order_line_item_id: f.foLines[0].id,
      weight: 250,
      weight_unit: 'G',
      hs_code: '6912.00',
      customs_value: 12.5,
    });
    const rows = await t.db.prisma.packageLineItem.count({ where: { package_id: p.id } });
    expect(rows).toBe(2);
    expect(await t.db.prisma.outboxEvent.count({ where: { kind: 'package.created' } })).toBeGreaterThan(0);
  });

  it('never packs more than remains, counting other open packages', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }], status: 'IN_PROGRESS' });
    const over = await call('POST', '/v1/ops/packages', specBody(f, [4]));
    expect(over.statusCode).toBe(409);
    expect(over.json().errors[0]).toMatchObject({ path: 'body.package_line_items.0.quantity' });
    expect((await call('POST', '/v1/ops/packages', specBody(f, [2]))).statusCode).toBe(201);
    const second = await call('POST', '/v1/ops/packages', specBody(f, [2]));
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toContain('1 can still be packed');
    expect((await call('POST', '/v1/ops/packages', specBody(f, [1]))).statusCode).toBe(201);
    expect(await t.db.prisma.package.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(2);
  });

  it('refuses lines that are not on the fulfillment order, and unknown orders', async () => {
    const f = await fulfillmentFixture(t);
    const g = await fulfillmentFixture(t);
    const res = await call('POST', '/v1/ops/packages', {
      ...specBody(f),
      package_line_items: [{ sku: g.foLines[0].sku, quantity: 1, product_id: g.products[0].id }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.package_line_items.0');
    // Named as a lead reads it: the order number and the product's SKU beside the ids.
    expect(res.json().errors[0].message).toBe(
      `does not match a line item of fulfillment order ${f.fo.id} (order ${f.order.order_number}) ` +
        `(sku ${g.foLines[0].sku}, product ${g.products[0].sku} (${g.products[0].id}))`,
    );
    const mismatch = await call('POST', '/v1/ops/packages', {
      ...specBody(f),
      package_line_items: [{ sku: f.foLines[0].sku, quantity: 1, product_id: g.products[0].id }],
    });
    expect(mismatch.statusCode).toBe(400);
    const unknown = await call('POST', '/v1/ops/packages', {
      ...specBody(f),
      fulfillment_order_id: '01990000-0000-7000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    const extra = await call('POST', '/v1/ops/packages', { ...specBody(f), colour: 'red' });
    expect(extra.statusCode).toBe(400);
    const noLines = await call('POST', '/v1/ops/packages', { ...specBody(f), package_line_items: [] });
    expect(noLines.statusCode).toBe(400);
  });

  it('refuses packages for a fulfilled fulfillment order', async () => {
    const f = await fulfillmentFixture(t, { status: 'FULFILLED' });
    const res = await call('POST', '/v1/ops/packages', specBody(f));
    expect(res.statusCode).toBe(409);
  });

  it('is idempotent with idempotency_key (body or Idempotency-Key header)', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 5 }] });
    const body = { ...specBody(f, [1]), idempotency_key: 'scan-42' };
    const first = await call('POST', '/v1/ops/packages', body);
    expect(first.statusCode).toBe(201);
    expect(first.json().idempotency_key).toBe('scan-42');
    const again = await call('POST', '/v1/ops/packages', body);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const different = await call('POST', '/v1/ops/packages', { ...body, name: 'Box 2' });
    expect(different.statusCode).toBe(409);
    expect(different.json().package_id).toBe(first.json().id);
    expect(await t.db.prisma.package.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(1);

    const viaHeader = await call('POST', '/v1/ops/packages', specBody(f, [1]), { 'idempotency-key': 'scan-43' });
    expect(viaHeader.statusCode).toBe(201);
    const replay = await call('POST', '/v1/ops/packages', specBody(f, [1]), { 'idempotency-key': 'scan-43' });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().id).toBe(viaHeader.json().id);
    const clash = await call('POST', '/v1/ops/packages', { ...specBody(f, [1]), idempotency_key: 'a' }, { 'idempotency-key': 'b' });
    expect(clash.statusCode).toBe(400);
  });
});

describe('write responses', () => {
  // Create, label and fulfill present the package from what their transaction wrote instead of
  // reading it again: the answer must be exactly what a GET shows afterwards.
  it('create, label and fulfill answer the package as GET then shows it', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }, { quantity: 1 }], status: 'ACCEPTED' });
    const shop = await t.db.prisma.shop.create({
      data: { merchant_team_id: f.merchantTeamId, name: 'Corner Store', slug: `corner-${f.fo.id}`, shop_type: 'SHOPIFY' },
    });
    await t.db.prisma.order.update({ where: { id: f.order.id }, data: { shop_id: shop.id } });
    expect(
      (await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 10 })).statusCode,
    ).toBe(200);
    const get = async (id: string) => (await call('GET', `/v1/ops/packages/${id}`)).json();

    // A lot and an expiry date on a line: every column type of a line is read back (label: raw SQL).
    const body = specBody(f);
    body.package_line_items[0] = {
      ...body.package_line_items[0],
      lot_code: 'LOT-7',
      expiration_date: '2027-03-01T00:00:00Z',
    } as (typeof body.package_line_items)[0];
    const created = await call('POST', '/v1/ops/packages', body);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(created.json().package_line_items[0]).toMatchObject({
      lot_code: 'LOT-7',
      expiration_date: expect.stringMatching(/^2027-03-01/),
    });
    expect(created.json()).toMatchObject({
      warehouse_name: 'Main Warehouse',
      fulfiller_team_name: expect.any(String),
      merchant_team_name: expect.any(String),
    });
    expect(created.json()).toEqual(await get(id));

    const labelled = await call('POST', `/v1/ops/packages/${id}/label`, {
      label_url: 'https://labels.example/w.pdf',
      tracking_number: `TRKW${id.slice(-6)}`,
      carrier: 'UPS',
      service: 'Ground',
      cost: 5.5,
      cost_currency: 'USD',
    });
    expect(labelled.statusCode, labelled.body).toBe(200);
    expect(labelled.json().shipping_label).not.toBeNull();
    expect(labelled.json()).toEqual(await get(id));

    const done = await call('POST', `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' });
    expect(done.statusCode, done.body).toBe(200);
    const { fulfillment_order: _fo, ...fulfilled } = done.json();
    expect(fulfilled.fulfillment).toMatchObject({ shop_id: shop.id, shop_name: 'Corner Store' });
    expect(fulfilled).toEqual(await get(id));
  });

  // Create reads the order's config and address with the fulfillment order's row lock (Json
  // through a subquery: text on SQLite, a value on PostgreSQL).
  it("create copies the order's config and shipping address", async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    await t.db.prisma.order.update({
      where: { id: f.order.id },
      data: {
        config: { incoterm: 'DDP', saturday_delivery: true, not_a_package_key: 1 },
        shipping_address: { name: 'Ada Lovelace', address1: "12 St James's Sq", city: 'London', zip: 'SW1Y 4JH', country: 'GB' },
      },
    });
    const created = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().config).toMatchObject({ incoterm: 'DDP', saturday_delivery: true, delivery_confirmation: 'NO_SIGNATURE' });
    expect(created.json().config).not.toHaveProperty('not_a_package_key');
    expect(created.json()).toMatchObject({
      to_address_name: 'Ada Lovelace',
      to_address_address1: "12 St James's Sq",
      to_address_city: 'London',
      to_address_country: 'GB',
    });
  });
});

describe('list and get', () => {
  it('filters by fulfillment order and status; other teams see 404', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 4 }] });
    const a = (await call('POST', '/v1/ops/packages', specBody(f, [1]))).json();
    const b = (await call('POST', '/v1/ops/packages', specBody(f, [1]))).json();
    await t.db.prisma.package.update({ where: { id: a.id }, data: { status: 'FULFILLED' } });
    const list = (await call('GET', `/v1/ops/packages?fulfillment_order_id=${f.fo.id}`)).json();
    expect(list.data.map((p: any) => p.id)).toEqual([b.id, a.id]);
    expect(list.meta).toMatchObject({ page: 0, page_size: 20, start_index: 1, end_index: 2, has_next_page: false });
    const pending = (await call('GET', `/v1/ops/packages?fulfillment_order_id=${f.fo.id}&status=PENDING`)).json();
    expect(pending.data.map((p: any) => p.id)).toEqual([b.id]);
    expect((await call('GET', '/v1/ops/packages?status=LOST')).statusCode).toBe(400);

    const got = await call('GET', `/v1/ops/packages/${b.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: b.id, package_line_items: [expect.objectContaining({ quantity: 1 })] });

    const otherTeam = await t.db.prisma.team.create({ data: { name: 'Elsewhere', kind: 'FULFILLER' } });
    const other = await t.key({ teamId: otherTeam.id });
    expect((await t.call('GET', `/v1/ops/packages/${b.id}`, { token: other.token })).statusCode).toBe(404);
    expect((await t.call('PATCH', `/v1/ops/packages/${b.id}`, { token: other.token, body: { name: 'x' } })).statusCode).toBe(404);
  });
});

describe('PATCH (spec 4.7)', () => {
  it('updates values; fulfillment_order_id and type are immutable', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }] });
    const g = await fulfillmentFixture(t);
    const p = (await call('POST', '/v1/ops/packages', specBody(f, [1]))).json();
    const res = await call('PATCH', `/v1/ops/packages/${p.id}`, {
      name: 'Renamed',
      weight: 900,
      config: { saturday_delivery: true, incoterm: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      weight: 900,
      length: 300,
      config: { saturday_delivery: true, incoterm: null, contents_type: 'OTHER' },
    });

    const moved = await call('PATCH', `/v1/ops/packages/${p.id}`, { fulfillment_order_id: g.fo.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors[0].path).toBe('body.fulfillment_order_id');
    const retyped = await call('PATCH', `/v1/ops/packages/${p.id}`, { type: 'RETURN' });
    expect(retyped.statusCode).toBe(400);
    const same = await call('PATCH', `/v1/ops/packages/${p.id}`, {
      fulfillment_order_id: f.fo.id,
      type: 'FULFILLMENT_ORDER',
      name: 'Same',
    });
    expect(same.statusCode).toBe(200);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).fulfillment_order_id).toBe(f.fo.id);
  });

  it('package_line_items replaces all: with id updated, without id created, missing deleted', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }, { quantity: 2 }, { quantity: 2 }] });
    const p = (await call('POST', '/v1/ops/packages', specBody(f, [1, 1, 1]))).json();
    const [keep, , drop] = p.package_line_items;
    const res = await call('PATCH', `/v1/ops/packages/${p.id}`, {
      package_line_items: [
        { id: keep.id, sku: keep.sku, quantity: 3 },
        { sku: f.foLines[1].sku, quantity: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.json().package_line_items;
    expect(lines).toHaveLength(2);
    expect(lines.find((l: any) => l.id === keep.id)).toMatchObject({ quantity: 3 });
    expect(lines.find((l: any) => l.id !== keep.id)).toMatchObject({ sku: f.foLines[1].sku, quantity: 2 });
    expect(res.json()).toMatchObject({ total_item_quantity: 5, unique_line_item_count: 2 });
    const rows = await t.db.prisma.packageLineItem.findMany({ where: { package_id: p.id } });
    expect(rows.map((r) => r.id)).not.toContain(drop.id);
    expect(rows.map((r) => r.id)).not.toContain(p.package_line_items[1].id);
    expect(rows).toHaveLength(2);
  });

  it('an item with only {id, quantity} updates that line, keeping what it packs and its lot (issue 35)', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }, { quantity: 2 }] });
    const p = (await call('POST', '/v1/ops/packages', specBody(f, [1, 1]))).json();
    const [first, second] = p.package_line_items;
    await t.db.prisma.packageLineItem.update({ where: { id: first.id }, data: { lot_code: 'LOT-7' } });
    const res = await call('PATCH', `/v1/ops/packages/${p.id}`, {
      package_line_items: [
        { id: first.id, quantity: 3 },
        { id: second.id, quantity: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total_item_quantity: 5, unique_line_item_count: 2 });
    const rows = await t.db.prisma.packageLineItem.findMany({ where: { package_id: p.id }, orderBy: { sku: 'asc' } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(rows).toHaveLength(2);
    expect(byId.get(first.id)).toMatchObject({ quantity: 3, sku: first.sku, lot_code: 'LOT-7' });
    expect(byId.get(first.id)!.core_fulfillment_order_line_item_id).toBe(first.core_fulfillment_order_line_item_id);
    expect(byId.get(second.id)).toMatchObject({ quantity: 2, sku: second.sku });
    // Still checked against what remains: 4 of a 3-unit line is refused, the line unchanged.
    const over = await call('PATCH', `/v1/ops/packages/${p.id}`, { package_line_items: [{ id: first.id, quantity: 4 }] });
    expect(over.statusCode).toBe(409);
    expect((await t.db.prisma.packageLineItem.findUniqueOrThrow({ where: { id: first.id } })).quantity).toBe(3);
  });

  it('validates replaced lines as at create, counting other packages but not itself', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }] });
    const p = (await call('POST', '/v1/ops/packages', specBody(f, [2]))).json();
    await call('POST', '/v1/ops/packages', specBody(f, [1]));
    const sku = f.foLines[0].sku;
    const over = await call('PATCH', `/v1/ops/packages/${p.id}`, {
      package_line_items: [{ id: p.package_line_items[0].id, sku, quantity: 3 }],
    });
    expect(over.statusCode).toBe(409);
    const same = await call('PATCH', `/v1/ops/packages/${p.id}`, {
      package_line_items: [{ id: p.package_line_items[0].id, sku, quantity: 2 }],
    });
    expect(same.statusCode).toBe(200);
    const foreign = await call('PATCH', `/v1/ops/packages/${p.id}`, {
      package_line_items: [{ id: '01990000-0000-7000-8000-000000000001', sku, quantity: 1 }],
    });
    expect(foreign.statusCode).toBe(400);
    expect((await t.db.prisma.packageLineItem.findMany({ where: { package_id: p.id } }))[0].quantity).toBe(2);
  });

  it('refuses to change a fulfilled package', async () => {
    const f = await fulfillmentFixture(t);
    const p = (await call('POST', '/v1/ops/packages', specBody(f, [1]))).json();
    await t.db.prisma.package.update({ where: { id: p.id }, data: { status: 'FULFILLED' } });
    const res = await call('PATCH', `/v1/ops/packages/${p.id}`, { name: 'late' });
    expect(res.statusCode).toBe(409);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).name).toBe('Box 1');
  });
});
