import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import * as F from './conformance.fields.js';

// Spec conformance audit (public-api.md sections 2-4): a realistic world built through the API,
// then every record type's keys compared to the spec's field lists exactly (missing and extra
// keys both fail), plus enum spellings, timestamp/id/number types, page meta and the 4.x rules.

/** Deliberate extras beyond a spec list, each with the reason it is kept. */
const EXTRAS: Record<string, string[]> = {
  // 4.6 step 4: "package with id, status, tracking_number (null until labelled) and other package details".
  // order_id: docs/fulfillment.md adds it (a package links to its order without a second call).
  package: ['tracking_number', 'order_id'],
  // docs/picking.md: the session list's meta adds total (4.9 returns "all fulfillment orders in the session").
  pickingMeta: ['total'],
  pickingEntry: ['picked_by_user_id', 'picked_by_user_name', 'picked_quantity', 'short_picked'], // issue 28 (docs/floor.md)
};

const PACKAGE_ENUMS = {
  incoterm: 'FAS',
  delivery_confirmation: 'NO_SIGNATURE',
  non_delivery_option: 'ABANDON',
  restriction_type: 'NONE',
  contents_type: 'OTHER',
  commercial_invoice_transaction_reason: 'SALE',
  insurance_policy: { mode: 'none' },
};

const CORRECTION = {
  version: 1,
  source_import: { filename: 'ups-invoice-0612.csv', import_id: 'imp-1' },
  carrier_invoice_number: 'INV-77',
  carrier_invoice_date: '2024-06-12',
  transaction_date: '2024-06-10',
  confirmed_at: '2024-06-13T09:00:00Z',
  tracking_number: '1Z4F9W120398765432',
  correction_type: 'ADDRESS',
  correction_reason: 'Residential surcharge',
  carrier_service_code: '03',
  published_amount: 12.1,
  incentive_amount: 2.2,
  original_carrier_cost: 9.87,
  carrier_adjustment_amount: 4.5,
  corrected_carrier_cost: 14.37,
  currency: 'USD',
};

const sorted = (a: string[]) => [...new Set(a)].sort();
function keys(obj: unknown, spec: string[], extras: string[] = [], what = '') {
  expect(obj, `${what} is an object`).toBeTypeOf('object');
  expect(obj).not.toBeNull();
  expect(Object.keys(obj as object).sort(), what).toEqual(sorted([...spec, ...extras]));
}
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Every *_at / date field that is set is ISO 8601 UTC with Z; every id is a string; walk nested objects. */
function types(obj: unknown, path = '$'): void {
  if (Array.isArray(obj)) {
    obj.forEach((v, i) => types(v, `${path}[${i}]`));
    return;
  }
  if (!obj || typeof obj !== 'object') return;
  for (const [k, v] of Object.entries(obj)) {
    const p = `${path}.${k}`;
    if (v === null) continue;
    if (/(_at|^deliver_by|^synced_at|^delivery_date|^expiration_date|^expires_at)$/.test(k) && typeof v !== 'boolean') {
      expect(typeof v === 'string' && ISO_Z.test(v), `${p}=${JSON.stringify(v)} is ISO UTC Z`).toBe(true);
    }
    if ((k === 'id' || k.endsWith('_id')) && k !== 'id_') expect(typeof v, `${p} is a string id`).toBe('string');
    if (
      /^(quantity|count|price|amount|weight|length|width|height|size|total_.*|.*_quantity|.*_count|.*_amount|.*_price|.*_level|available|on_hand|committed|unavailable|on_order)$/.test(
        k,
      ) &&
      typeof v !== 'object'
    ) {
      expect(typeof v, `${p} is a number`).toBe('number');
    }
    types(v, p);
  }
}
function pageMeta(meta: unknown, extra: string[] = []) {
  keys(meta, F.PAGE_META, extra, 'meta');
  const m = meta as Record<string, unknown>;
  for (const k of ['page', 'page_size', 'start_index', 'end_index', ...extra]) expect(typeof m[k], `meta.${k}`).toBe('number');
  expect(typeof m.has_next_page).toBe('boolean');
  expect(typeof m.has_previous_page).toBe('boolean');
}

let t: TestApp;
let token: string;
let merchant: { teamId: string; token: string; delegationId: string };
const w: Record<string, any> = {};

const call = (method: string, url: string, body?: unknown, tok = token) =>
  t.call(method, url, { token: tok, ...(body !== undefined ? { body } : {}) });
async function ok(method: string, url: string, body?: unknown, tok = token, status?: number) {
  const res = await call(method, url, body, tok);
  if (status ? res.statusCode !== status : res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  const db = t.db.prisma;
  w.warehouse = await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Reno DC' });
  w.locationType = await teams.createLocationType(t.db, { team_id: t.teamId, name: 'Shelf' });
  merchant = await t.merchant({
    rate_card: {
      id: 'rc_std',
      name: 'Standard',
      version_id: 'v_1',
      semantic_version: '1.0.0',
      currency: 'USD',
      storage: { rate_per_unit: { DAILY: 0.05 } },
      receiving: { rate_per_unit: 0.25 },
      shipping: { fee_per_package: 1.5, markup_percent: 10 },
    },
  });

  // Products: a component, then a bundle-bearing product for the merchant, both through the ops API.
  w.component = await ok('POST', '/v1/ops/products', {
    name: 'Mug lid',
    type: 'STANDARD',
    sku: 'LID-1',
    merchant_team_id: merchant.teamId,
  });
  w.product = await ok('POST', '/v1/ops/products', {
    name: 'Ceramic mug',
    type: 'STANDARD',
    sku: 'MUG-1',
    merchant_team_id: merchant.teamId,
    description: 'White, 350 ml',
    barcode: '0123456789012',
    image_url: 'https://img.example/mug.jpg',
    length: 120,
    width: 90,
    height: 100,
    weight: 350,
    cost_price: 3.2,
    cost_currency: 'USD',
    customs_value: 8,
    customs_value_currency: 'USD',
    hs_code: '6912.00',
    country_of_origin: 'PT',
    is_hazmat: false,
    config: { replenishment_source_strategy: 'FIFO', replenishment_minimum_level: 5 },
    bundle_components: [{ component_product_id: w.component.id, component_quantity: 1 }],
    assembly_components: [{ component_product_sku: 'LID-1', component_quantity: 2 }],
  });
  await db.inventoryLevel.create({ data: { product_id: w.product.id, warehouse_id: w.warehouse.id, on_hand: 40 } });
  const shop = await db.shop.create({
    data: { merchant_team_id: merchant.teamId, name: 'Mug Store', slug: 'mug-store', shop_type: 'SHOPIFY' },
  });
  await db.productListingVariant.create({
    data: {
      product_id: w.product.id,
      shop_id: shop.id,
      remote_id: 'gid-1',
      remote_inventory_item_id: 'inv-1',
      sku: 'MUG-1',
      price: 12,
      currency: 'USD',
      synced_at: new Date(),
    },
  });

  w.merchantProduct = await ok('POST', '/v1/merchant/products', { name: 'Tea towel', type: 'STANDARD', sku: 'TOWEL-1' }, merchant.token);
  w.vendor = await ok(
    'POST',
    '/v1/merchant/vendors',
    {
      vendor_name: 'Porto Ceramics',
      company_name: 'Porto Ceramics Lda',
      address: 'Rua 1',
      city: 'Porto',
      state: 'PR',
      zip_code: '4000-001',
      country: 'PT',
      product_ids: [w.merchantProduct.id],
    },
    merchant.token,
  );

  // Orders: a paid one to fulfill (address verification on), and an unpaid one on hold.
  const draftBody = (extra: Record<string, unknown>) => ({
    merchant_team_id: merchant.teamId,
    shop_id: shop.id,
    shipping_address: {
      name: 'Grace Hopper',
      company: null,
      address1: '1 Compiler Rd',
      address2: null,
      city: 'Arlington',
      state: 'VA',
      country: 'US',
      zip: '22201',
      phone: '+1 703 555 0100',
    },
    billing_address: { name: 'Grace Hopper', address1: '1 Compiler Rd', city: 'Arlington', state: 'VA', country: 'US', zip: '22201' },
    customer: { email: 'grace@example.com', name: 'Grace Hopper', phone: '+1 703 555 0100' },
    line_items: [{ sku: 'MUG-1', quantity: 3, price: 12 }],
    tags: ['vip'],
    note: 'Gift wrap',
    shipping_method: 'Ground',
    config: { address_verification_enabled: true },
    ...extra,
  });
  const d1 = await ok('POST', '/v1/ops/draft-orders', draftBody({ payment_status: 'PAID', priority: 'HIGH' }));
  w.order = await ok('POST', `/v1/ops/draft-orders/${d1.id}/convert`);
  const d2 = await ok(
    'POST',
    '/v1/ops/draft-orders',
    draftBody({ payment_status: 'PENDING', line_items: [{ sku: 'MUG-1', quantity: 1, price: 12 }] }),
  );
  w.heldOrder = await ok('POST', `/v1/ops/draft-orders/${d2.id}/convert`);

  // Fulfillment workflow: list, accept, lock, package, label, fulfill.
  w.foList = await ok('GET', `/v1/ops/fulfillment-orders?order_id=${w.order.id}`);
  w.foId = w.foList.data[0].id;
  w.accepted = await ok('POST', `/v1/ops/fulfillment-orders/${w.foId}/accept`);
  w.session = await ok('POST', '/v1/ops/picking-sessions', { name: 'Morning wave' }, token, 201);
  w.tote = await ok('POST', '/v1/ops/totes', { name: 'Tote A' }, token, 201);
  const heldFoForPick = await ok('GET', `/v1/ops/fulfillment-orders?order_id=${w.heldOrder.id}`);
  await ok('POST', `/v1/ops/picking-sessions/${w.session.id}/fulfillment-orders`, {
    fulfillment_order_ids: [heldFoForPick.data[0].id, w.foId],
    tote_id: w.tote.id,
  });
  w.lock = await ok('POST', `/v1/ops/fulfillment-orders/${w.foId}/lock`, { lock_owner: 'station-7', timeout_minutes: 30 });
  w.fo = await ok('GET', `/v1/ops/fulfillment-orders/${w.foId}`);
  w.pkgCreated = await ok(
    'POST',
    '/v1/ops/packages',
    {
      fulfillment_order_id: w.foId,
      name: 'Package 1',
      weight: 1100,
      weight_unit: 'G',
      length: 250,
      width: 180,
      height: 120,
      measurement_unit: 'MM',
      rate_strategy: 'CHEAPEST',
      carton_id: 'carton-small',
      package_line_items: [{ sku: 'MUG-1', quantity: 3, product_id: w.product.id }],
    },
    token,
    201,
  );
  // 4.7 checks while the package is still open (a fulfilled package refuses every change).
  w.pkgPatched = await ok('PATCH', `/v1/ops/packages/${w.pkgCreated.id}`, { config: PACKAGE_ENUMS });
  const heldFo = await ok('GET', `/v1/ops/fulfillment-orders?order_id=${w.heldOrder.id}`);
  w.moved = await call('PATCH', `/v1/ops/packages/${w.pkgCreated.id}`, { fulfillment_order_id: heldFo.data[0].id });
  w.retyped = await call('PATCH', `/v1/ops/packages/${w.pkgCreated.id}`, { type: 'WORK_ORDER' });
  // A failed rate shop keeps rate_error_data on the package (2.7); the uploaded label then clears it.
  await ok(
    'POST',
    '/v1/ops/carrier-rates',
    { carrier_id: 'ups', carrier_name: 'UPS', service_id: 'ground', service_name: 'Ground', amount: 8, estimated_days: 4 },
    token,
    201,
  );
  const rateFail = await call('POST', `/v1/ops/packages/${w.pkgCreated.id}/label`, { rate_strategy: 'CHEAPEST', service_id: 'teleport' });
  if (rateFail.statusCode !== 409) throw new Error(`rate shop: ${rateFail.statusCode} ${rateFail.body}`);
  w.pkgRateError = await ok('GET', `/v1/ops/packages/${w.pkgCreated.id}`);
  w.labelled = await ok('POST', `/v1/ops/packages/${w.pkgCreated.id}/label`, {
    label_url: 'https://labels.example.com/1Z.pdf',
    tracking_number: '1Z4F9W120398765432',
    carrier: 'UPS',
    service: 'Ground',
    cost: 9.87,
    cost_currency: 'USD',
  });
  w.fulfilled = await ok('POST', `/v1/ops/packages/${w.pkgCreated.id}/fulfill`, { locked_by: 'station-7' });
  // carrier_correction has no API (carrier invoice imports): seed the spec's members on the label.
  await db.shippingLabel.update({ where: { id: w.fulfilled.shipping_label.id }, data: { carrier_correction: CORRECTION } });
  w.pkg = await ok('GET', `/v1/ops/packages/${w.pkgCreated.id}`);

  // Charges: storage and receiving through the API; SHIPPING was billed by fulfill.
  w.storage = await ok(
    'POST',
    '/v1/ops/charges/storage',
    {
      fulfillment_delegation_id: merchant.delegationId,
      data: { name: 'June storage', location_type_id: w.locationType.id, warehouse_id: w.warehouse.id, rate_period: 'DAILY', quantity: 3 },
    },
    token,
    201,
  );
  w.receiving = await ok(
    'POST',
    '/v1/ops/charges/receiving',
    {
      fulfillment_delegation_id: merchant.delegationId,
      data: { name: 'PO 7 receiving', quantity: 12, purchase_order_id: 'po-7' },
    },
    token,
    201,
  );
  w.shippingCharges = await ok('GET', `/v1/ops/charges?category=SHIPPING&order_id=${w.order.id}`);

  // Files and picking.
  w.file = await ok(
    'POST',
    '/v1/ops/files',
    {
      name: 'Invoice.pdf',
      url: 'https://files.example.com/invoice.pdf',
      mimetype: 'application/pdf',
      size: 5000,
      tags: ['billing'],
      file_category: 'DOCUMENT',
    },
    token,
    201,
  );
});
afterAll(() => t?.close());

describe('2.3 product (ops)', () => {
  it('create, get-one, list and update carry exactly the spec fields', async () => {
    const LOT = ['lot_tracked']; // issue 28 extension: stock held per lot (docs/floor.md)
    keys(w.product, F.PRODUCT_WRITE, LOT, 'create');
    const one = await ok('GET', `/v1/ops/products/${w.product.id}`);
    keys(one, F.PRODUCT_ONE, LOT, 'get-one');
    types(one);
    const list = await ok('GET', '/v1/ops/products?search=MUG-1');
    expect(list.data).toHaveLength(1);
    keys(list.data[0], F.PRODUCT_LIST, LOT, 'list item');
    pageMeta(list.meta);
    const upd = await ok('PATCH', `/v1/ops/products/${w.product.id}`, { mpn: 'MPN-9' });
    keys(upd, F.PRODUCT_WRITE, LOT, 'update');

    keys(one.config, F.PRODUCT_CONFIG, [], 'config');
    expect(one.config.replenishment_source_strategy).toBe('FIFO');
    expect(one).toMatchObject({ type: 'STANDARD', measurement_unit: 'MM', weight_unit: 'G', on_hand: 37, available: 36, committed: 1 });
    expect(one.inventory_by_warehouse).toHaveLength(1);
    const inv = one.inventory_by_warehouse[0];
    keys(inv, F.INVENTORY_BY_WAREHOUSE, [], 'inventory_by_warehouse');
    for (const k of ['on_order', 'unavailable', 'committed', 'on_hand', 'available']) {
      keys(inv[k], ['count', 'operations'], [], `inventory.${k}`);
      for (const op of inv[k].operations) keys(op, ['count', 'label'], [], 'operation');
    }
    keys(one.product_listing_variant_count, F.PLATFORMS, [], 'product_listing_variant_count');
    expect(one.product_listing_variant_count.SHOPIFY).toBe(1);
    expect(one.virtual_bundle_products).toHaveLength(1);
    keys(one.virtual_bundle_products[0], F.BUNDLE_COMPONENT, [], 'virtual_bundle_products[]');
    keys(one.assembly_products[0], F.ASSEMBLY_COMPONENT, [], 'assembly_products[]');
    keys(one.product_listing_variants[0], F.LISTING_VARIANT, [], 'product_listing_variants[]');
    expect(one.product_listing_variants[0]).toMatchObject({ shop_type: 'SHOPIFY', remote_shopify_inventory_item_id: 'inv-1' });
    expect(one.supported_actions).toEqual([{ action: 'VIEW_PRODUCT' }]);
    expect(list.data[0].supported_actions).toEqual([{ action: 'VIEW_PRODUCT' }]);
  });
});

describe('2.4 product (merchant) and 2.5 vendor', () => {
  it('merchant product: create, get-one, list', async () => {
    keys(w.merchantProduct, F.MERCHANT_PRODUCT, [], 'create');
    const one = await ok('GET', `/v1/merchant/products/${w.merchantProduct.id}`, undefined, merchant.token);
    keys(one, F.MERCHANT_PRODUCT, [], 'get-one');
    keys(one.config, F.PRODUCT_CONFIG, [], 'config');
    types(one);
    const list = await ok('GET', '/v1/merchant/products', undefined, merchant.token);
    for (const p of list.data) keys(p, F.MERCHANT_PRODUCT, [], 'list item');
    pageMeta(list.meta);
    const upd = await ok('PATCH', `/v1/merchant/products/${w.merchantProduct.id}`, { description: 'Linen' }, merchant.token);
    keys(upd, F.MERCHANT_PRODUCT, [], 'update');
  });

  it('vendor: create, get, update, list', async () => {
    keys(w.vendor, F.VENDOR, [], 'create');
    expect(w.vendor.products).toHaveLength(1);
    keys(w.vendor.products[0], F.VENDOR_PRODUCT, [], 'vendor.products[]');
    types(w.vendor);
    keys(await ok('PATCH', `/v1/merchant/vendors/${w.vendor.id}`, { contact_person_name: 'Rui' }, merchant.token), F.VENDOR, [], 'update');
    keys(await ok('GET', `/v1/merchant/vendors/${w.vendor.id}`, undefined, merchant.token), F.VENDOR, [], 'get');
    const list = await ok('GET', '/v1/merchant/vendors', undefined, merchant.token);
    keys(list.data[0], F.VENDOR, [], 'list item');
    pageMeta(list.meta);
  });
});

describe('2.6 order', () => {
  it('get-one carries exactly the spec fields with the spec enums', async () => {
    const o = await ok('GET', `/v1/ops/orders/${w.order.id}`);
    keys(o, F.ORDER_ONE, ['cancel_reason'], 'order'); // cancel_reason: issue 25 extension (docs/orders.md)
    types(o);
    keys(o.metadata, F.ORDER_METADATA, [], 'metadata');
    keys(o.config, F.ORDER_CONFIG, [], 'order config');
    expect(o.core_order_line_items).toHaveLength(1);
    keys(o.core_order_line_items[0], [...F.CORE_ITEM, 'returned_quantity'], [], 'core item'); // returned_quantity: issue 10 extension
    keys(o.original_order_line_items[0], F.ORIGINAL_ITEM, [], 'original item');
    expect(o.supported_actions).toEqual([{ action: 'VIEW_REMOTE_ORDER' }]);
    expect(o).toMatchObject({
      fulfillment_status: 'FULFILLED',
      priority: 'HIGH',
      shop_type: 'SHOPIFY',
      address_verified: true,
      address_residential: 'RESIDENTIAL',
    });
    expect(Array.isArray(o.tags) && Array.isArray(o.line_item_image_urls)).toBe(true);
    const v = o.address_verification_response;
    keys(v, F.ADDRESS_VERIFICATION, [], 'address_verification_response');
    keys(v.corrected_address, F.CORRECTED_ADDRESS, [], 'corrected_address');
    keys(v.metadata, F.VERIFICATION_METADATA, [], 'verification metadata');
    expect(v).toMatchObject({ verified: true, residential: 'RESIDENTIAL', metadata: { record_type: 'S', dpv_match_code: 'Y' } });

    const held = await ok('GET', `/v1/ops/orders/${w.heldOrder.id}`);
    expect(held.payment_status).toBe('PENDING');
    expect(held.order_fulfillment_holds).toHaveLength(1);
    keys(held.order_fulfillment_holds[0], F.ORDER_HOLD, [], 'hold');
    expect(held.order_fulfillment_holds[0]).toMatchObject({ active: true, reason: 'AWAITING_PAYMENT' });
    types(held);
  });

  it('priority update returns the order; the list projection has exactly its fields', async () => {
    const p = await ok('PATCH', `/v1/ops/orders/${w.heldOrder.id}/priority`, { priority: 'CRITICAL' });
    expect(p.priority).toBe('CRITICAL');
    keys(p, F.ORDER_ONE, ['cancel_reason'], 'priority response');
    const list = await ok('GET', '/v1/ops/orders/list');
    expect(list.data).toHaveLength(2);
    for (const item of list.data) keys(item, F.ORDER_LIST_ITEM, [], 'order list item');
    types(list.data);
    pageMeta(list.meta);
    expect(list.data.map((x: any) => x.address_residential).sort()).toEqual(['RESIDENTIAL', 'RESIDENTIAL']);
  });

  it('4.5 rules: search needs 3 characters; prefix/substring matching', async () => {
    expect((await call('GET', '/v1/ops/orders/list?search=Gr')).statusCode).toBe(400);
    expect((await ok('GET', '/v1/ops/orders/list?search=Gra')).data).toHaveLength(2);
    expect((await ok('GET', '/v1/ops/orders/list?search=grace%40exa')).data).toHaveLength(2);
    expect((await ok('GET', '/v1/ops/orders/list?order_by=order_number&order=desc')).meta.page_size).toBe(20);
    expect((await call('GET', '/v1/ops/orders/list?order_by=priority')).statusCode).toBe(400);
  });
});

describe('2.7 package', () => {
  it('create, label, get carry exactly the spec fields (+ tracking_number per 4.6)', async () => {
    keys(w.pkgCreated, F.PACKAGE, EXTRAS.package, 'package create');
    expect(w.pkgCreated).toMatchObject({ status: 'PENDING', type: 'FULFILLMENT_ORDER', tracking_number: null });
    keys(w.labelled, F.PACKAGE, EXTRAS.package, 'label response');
    keys(w.pkg, F.PACKAGE, EXTRAS.package, 'package get');
    types(w.pkg);
    keys(w.pkg.config, F.PACKAGE_CONFIG, [], 'package config');
    keys(w.pkg.config.insurance_policy, ['mode'], [], 'insurance_policy');
    expect(w.pkg.config.insurance_policy.mode).toBe('none');
    expect(w.pkg.package_line_items).toHaveLength(1);
    keys(w.pkg.package_line_items[0], F.PACKAGE_LINE_ITEM, [], 'package_line_items[]');
    keys(w.pkg.fulfillment, F.FULFILLMENT, [], 'fulfillment');
    expect(w.pkg.fulfillment).toMatchObject({ type: 'PICK_PACK', package_type: 'FULFILLMENT_ORDER', shipment_status: 'LABEL_PRINTED' });
    keys(w.pkg.shipping_label, F.SHIPPING_LABEL, [], 'shipping_label');
    expect(w.pkg.shipping_label).toMatchObject({ shipment_status: 'LABEL_PRINTED', tracking_code: '1Z4F9W120398765432', price: 9.87 });
    expect(w.pkg.shipping_label.carrier_integration_type).toBe('GENERIC');
    expect(w.pkg.shipment_status).toBe('LABEL_PRINTED');
    expect(w.pkg.rate_error_data).toBeNull();
    keys(w.pkg.shipping_label.carrier_correction, F.CARRIER_CORRECTION, [], 'carrier_correction');
    keys(w.pkg.shipping_label.carrier_correction.source_import, ['filename', 'import_id'], [], 'source_import');
    expect(w.pkg.shipping_label.carrier_correction).toEqual(CORRECTION);
    const red = w.pkgRateError.rate_error_data;
    keys(red, F.RATE_ERROR_DATA, [], 'rate_error_data');
    expect(red.available_rates).toHaveLength(1);
    keys(red.available_rates[0], F.AVAILABLE_RATE, [], 'available_rates[]');
    for (const e of red.detailed_errors) keys(e, ['carrier_type', 'message'], [], 'detailed_errors[]');
    types(w.pkgRateError);
  });

  it('config enum values, where set, use the spec spellings', async () => {
    keys(w.pkgPatched, F.PACKAGE, EXTRAS.package, 'package update');
    expect(w.pkgPatched.config).toMatchObject(PACKAGE_ENUMS);
  });

  it('4.7 rules: fulfillment_order_id and type are immutable', async () => {
    expect(w.moved.statusCode, w.moved.body).toBeGreaterThanOrEqual(400);
    expect(w.moved.statusCode).toBeLessThan(500);
    expect(w.retyped.statusCode, w.retyped.body).toBeGreaterThanOrEqual(400);
    expect(w.retyped.statusCode).toBeLessThan(500);
    const row = await t.db.prisma.package.findUniqueOrThrow({ where: { id: w.pkgCreated.id } });
    expect(row).toMatchObject({ fulfillment_order_id: w.foId, type: 'FULFILLMENT_ORDER' });
  });
});

describe('2.8 charge', () => {
  it('storage, receiving and shipping charges carry exactly the spec fields and nested members', async () => {
    for (const c of [w.storage, w.receiving]) {
      keys(c, F.CHARGE, [], `${c.category} charge`);
      types(c);
      keys(c.pricing_config, F.PRICING_CONFIG, [], 'pricing_config');
      keys(c.pricing_trace, F.PRICING_TRACE, [], 'pricing_trace');
      keys(c.pricing_trace.pricing_config, F.PRICING_CONFIG, [], 'trace pricing_config');
      for (const e of c.pricing_trace.events) keys(e, F.TRACE_EVENT, [], 'event');
      expect(c.pricing_trace.decision).toBe('pricing_matched');
      expect(c.pricing_trace.events[0].event_type).toBe('trigger');
    }
    expect(w.storage).toMatchObject({ category: 'STORAGE', quantity: 3, calculated_amount: 0.15 });
    expect(w.shippingCharges.data).toHaveLength(1);
    pageMeta(w.shippingCharges.meta);
    const s = w.shippingCharges.data[0];
    keys(s, F.CHARGE, [], 'SHIPPING charge');
    types(s);
    expect(s).toMatchObject({ category: 'SHIPPING', order_id: w.order.id });
    keys(s.pricing_config, F.PRICING_CONFIG, [], 'pricing_config');
    expect(s.pricing_config.origination).toBe('ORDER');
    keys(s.pricing_config.shipping_label, F.PRICING_LABEL, [], 'pricing_config.shipping_label');
    keys(s.pricing_config.order, F.PRICING_ORDER, [], 'pricing_config.order');
    expect(s.pricing_config.order).toMatchObject({
      address_residential: 'RESIDENTIAL',
      priority: 'HIGH',
      shop_type: 'SHOPIFY',
      tags: ['vip'],
    });
    keys(s.pricing_trace.pricing_config.shipping_label, F.TRACE_LABEL, [], 'trace shipping_label');
    keys(s.pricing_trace.pricing_config.order, F.TRACE_ORDER, [], 'trace order');
    keys(await ok('GET', `/v1/ops/charges/${s.id}`), F.CHARGE, [], 'charge get');
    keys(await ok('PATCH', `/v1/ops/charges/receiving/${w.receiving.id}`, { data: { quantity: 14 } }), F.CHARGE, [], 'receiving PATCH');
  });
});

describe('2.9 file, 2.10 picking entry, 2.11 fulfillment order', () => {
  it('file: list carries supported_actions, get/create/patch do not', async () => {
    keys(w.file, F.FILE, [], 'file create');
    expect(w.file).toMatchObject({ processing_status: 'PENDING', file_category: 'DOCUMENT', size: 5000 });
    keys(await ok('GET', `/v1/ops/files/${w.file.id}`), F.FILE, [], 'file get');
    keys(await ok('PATCH', `/v1/ops/files/${w.file.id}`, { description: 'March' }), F.FILE, [], 'file patch');
    const list = await ok('GET', '/v1/ops/files');
    keys(list.data[0], F.FILE, ['supported_actions'], 'file list item');
    expect(list.data[0].supported_actions).toEqual([{ action: 'VIEW_FILE' }]);
    types(list.data);
    pageMeta(list.meta);
  });

  it('picking entries: exact fields; limit 1..50 default 10; status PENDING/FULFILLED', async () => {
    const url = `/v1/ops/v1/picking-sessions/${w.session.id}/fulfillment-orders`;
    const list = await ok('GET', url);
    expect(list.data).toHaveLength(2);
    for (const e of list.data) keys(e, F.PICKING_ENTRY, EXTRAS.pickingEntry, 'picking entry');
    types(list.data);
    pageMeta(list.meta, EXTRAS.pickingMeta);
    expect(list.meta.page_size).toBe(10);
    expect(list.data.find((e: any) => e.fulfillment_order_id === w.foId)).toMatchObject({ status: 'FULFILLED', tote_name: 'Tote A' });
    expect((await ok('GET', `${url}?status=FULFILLED`)).data).toHaveLength(1);
    expect((await ok('GET', `${url}?status=PENDING`)).data).toHaveLength(1);
    expect((await ok('GET', `${url}?limit=50`)).meta.page_size).toBe(50);
    expect((await call('GET', `${url}?limit=51`)).statusCode).toBe(400);
    expect((await call('GET', `${url}?limit=0`)).statusCode).toBe(400);
  });

  it('fulfillment order list/get and lock response', async () => {
    pageMeta(w.foList.meta, ['total']);
    expect(w.foList.meta.total).toBe(1);
    for (const fo of [w.foList.data[0], w.fo, w.accepted]) {
      for (const k of F.FULFILLMENT_ORDER_MIN) expect(fo, k).toHaveProperty(k);
      types(fo);
    }
    expect(w.foList.data[0]).toMatchObject({ status: 'PENDING' });
    expect(w.accepted).toMatchObject({ status: 'ACCEPTED', request_status: 'ACCEPTED' });
    expect(w.fo).toMatchObject({ status: 'IN_PROGRESS', request_status: 'ACCEPTED' });
    keys(w.lock, F.LOCK_RESPONSE, [], 'lock response');
    expect(w.lock).toMatchObject({ success: true, lock_owner: 'station-7' });
    expect(w.lock.expires_at).toMatch(ISO_Z);
  });
});

describe('4.x query rules', () => {
  const status = async (url: string, tok = token) => (await call('GET', url, undefined, tok)).statusCode;
  it('lists: 0-based page, limit 1..100 default 20, documented filters and sort fields', async () => {
    for (const url of ['/v1/ops/products', '/v1/ops/files', '/v1/ops/orders/list', '/v1/ops/charges']) {
      const body = await ok('GET', url);
      expect(body.meta, url).toMatchObject({ page: 0, page_size: 20, has_previous_page: false });
      expect(await status(`${url}?limit=101`), url).toBe(400);
      expect(await status(`${url}?limit=0`), url).toBe(400);
      expect(await status(`${url}?page=-1`), url).toBe(400);
    }
    const m = await ok('GET', '/v1/merchant/products?page=0&order_by=updated_at&order=asc&search=tow', undefined, merchant.token);
    expect(m.data.map((p: any) => p.sku)).toEqual(['TOWEL-1']);
    for (const q of [
      'order_by=updated_at&order=asc',
      'type=STANDARD',
      'has_image=true',
      'has_barcode=true',
      'has_remote_products=true',
      'was_inspected=false',
      `warehouse_id=${w.warehouse.id}`,
      `team_id=${merchant.teamId}`,
      'search=0123456789012',
    ]) {
      expect(await status(`/v1/ops/products?${q}`), q).toBe(200);
    }
    expect((await ok('GET', '/v1/ops/products?has_remote_products=true')).data.map((p: any) => p.sku)).toEqual(['MUG-1']);
    expect((await ok('GET', '/v1/ops/products?search=0123456789012')).data.map((p: any) => p.sku)).toEqual(['MUG-1']);
    for (const q of ['order_by=name', 'order_by=size&order=desc', 'mimetype=application/pdf,image/png', 'min_size=100', 'search=invoice']) {
      expect(
        (await ok('GET', `/v1/ops/files?${q}`)).data.map((f: any) => f.name),
        q,
      ).toEqual(['Invoice.pdf']);
    }
    const filtered = await ok(
      'GET',
      '/v1/ops/orders/list?payment_status=PAID&fulfillment_status=FULFILLED&created_at_min=2020-01-01T00:00:00Z&updated_at_max=2999-01-01T00:00:00Z',
    );
    expect(filtered.data.map((o: any) => o.id)).toEqual([w.order.id]);
    expect((await ok('GET', '/v1/ops/orders/list?payment_status=PENDING')).data.map((o: any) => o.id)).toEqual([w.heldOrder.id]);
  });

  it('lock needs lock_owner and timeout_minutes; priority takes only the four values', async () => {
    const fo = (await ok('GET', `/v1/ops/fulfillment-orders?order_id=${w.heldOrder.id}`)).data[0];
    expect((await call('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'x' })).statusCode).toBe(400);
    expect((await call('PATCH', `/v1/ops/orders/${w.heldOrder.id}/priority`, { priority: 'URGENT' })).statusCode).toBe(400);
    const nf = await call('GET', '/v1/ops/orders/01a20000-0000-7000-8000-000000000000');
    expect(nf.statusCode).toBe(404);
    expect(nf.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(nf.json()).toMatchObject({ type: 'urn:fos:error:not-found', title: 'Not Found', status: 404 });
    expect(nf.json().detail).toMatch(/\([^)]*[0-9a-f]{16}\)$/);
  });
});
