import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import {
  type ChannelsWorld,
  channelsWorld,
  connectShopify,
  connectWoo,
  shopifyDelivery,
  stockedProduct,
  wooDelivery,
} from '../helpers/channels.js';
import { shopifyWebhookOrder, wooOrder } from '../helpers/platform-doubles.js';
import { ledgerBalanced } from './inventory.fixtures.js';

// Shop edits (issue 37 item 5) through the signed webhook endpoint: a changed address or changed
// lines are applied while nothing is packed (stock released/committed through the ledger), held
// for a person (SHOP_EDIT, with the old -> new difference) once packing started; an authorized
// payment ships or waits per the shop's ship_on_authorized setting.

let w: ChannelsWorld;
let t: TestApp;
let shop: { id: string };
let woo: { id: string };
const ids: Record<string, string> = {};

beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  shop = await connectShopify(t, w.merchant.teamId, w.shopify);
  woo = await connectWoo(t, w.merchant.teamId, w.woo);
  for (const sku of ['ED-MUG', 'ED-TEE', 'ED-SOCK']) ids[sku] = (await stockedProduct(t, w.merchant.teamId, sku, 50)).product.id;
});
afterAll(async () => {
  await w?.close();
});

const orderOf = async (remoteId: string) => {
  const row = await t.db.prisma.order.findFirstOrThrow({ where: { remote_id: remoteId } });
  return (await t.call('GET', `/v1/ops/orders/${row.id}`)).json();
};
const committed = async (sku: string) => (await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: ids[sku] } })).committed;
const coreQty = (order: { core_order_line_items: { sku: string; total_quantity: number; removed_quantity: number }[] }) =>
  Object.fromEntries(order.core_order_line_items.map((l) => [l.sku, l.total_quantity - l.removed_quantity]));
const NEW_ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  company: null,
  address1: '12 St James Square',
  address2: null,
  city: 'Richmond',
  province: 'Virginia',
  province_code: 'VA',
  country: 'United States',
  country_code: 'US',
  zip: '23219',
  phone: null,
};

describe('Shopify orders/updated', () => {
  it('applies a new address and changed, removed and added lines before packing; ledger exact; a repeat changes nothing', async () => {
    const before = { mug: await committed('ED-MUG'), tee: await committed('ED-TEE'), sock: await committed('ED-SOCK') };
    const body = shopifyWebhookOrder(7001, [
      { sku: 'ED-MUG', quantity: 3 },
      { sku: 'ED-TEE', quantity: 1 },
    ]);
    expect((await shopifyDelivery(t, shop.id, 'orders/create', body)).json().status).toBe('PROCESSED');
    const edited = {
      ...body,
      shipping_address: NEW_ADDRESS,
      line_items: [
        { ...body.line_items[0], current_quantity: 1 },
        { ...body.line_items[1], current_quantity: 0 },
        {
          ...body.line_items[0],
          id: 70019,
          admin_graphql_api_id: 'gid://shopify/LineItem/70019',
          sku: 'ED-SOCK',
          quantity: 2,
          current_quantity: 2,
        },
      ],
    };
    const res = await shopifyDelivery(t, shop.id, 'orders/updated', edited);
    expect(res.json().status).toBe('PROCESSED');
    const order = await orderOf('gid://shopify/Order/7001');
    expect(order.shipping_address_city).toBe('Richmond');
    expect(order.shipping_address_address1).toBe('12 St James Square');
    expect(coreQty(order)).toEqual({ 'ED-MUG': 1, 'ED-TEE': 0, 'ED-SOCK': 2 });
    expect(order.order_fulfillment_holds.filter((h: { active: boolean }) => h.active)).toEqual([]);
    expect(await committed('ED-MUG')).toBe(before.mug + 1);
    expect(await committed('ED-TEE')).toBe(before.tee);
    expect(await committed('ED-SOCK')).toBe(before.sock + 2);
    await ledgerBalanced(t.db, Object.values(ids));
    // The same delivery again (Shopify retries): nothing more.
    await shopifyDelivery(t, shop.id, 'orders/updated', edited);
    expect(coreQty(await orderOf('gid://shopify/Order/7001'))).toEqual({ 'ED-MUG': 1, 'ED-TEE': 0, 'ED-SOCK': 2 });
    expect(await committed('ED-SOCK')).toBe(before.sock + 2);
  });

  it('once packing started: changes nothing and holds the order (SHOP_EDIT) with the difference; a repeat adds no hold', async () => {
    const body = shopifyWebhookOrder(7002, [{ sku: 'ED-MUG', quantity: 2 }]);
    await shopifyDelivery(t, shop.id, 'orders/create', body);
    const created = await orderOf('gid://shopify/Order/7002');
    const fo = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: created.id } });
    expect((await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).statusCode).toBe(200);
    const pkg = await t.call('POST', '/v1/ops/packages', {
      body: { fulfillment_order_id: fo.id, weight: 100, weight_unit: 'G', package_line_items: [{ sku: 'ED-MUG', quantity: 2 }] },
    });
    expect(pkg.statusCode, pkg.body).toBe(201);
    const mug = await committed('ED-MUG');
    const edited = { ...body, shipping_address: NEW_ADDRESS, line_items: [{ ...body.line_items[0], current_quantity: 1 }] };
    expect((await shopifyDelivery(t, shop.id, 'orders/updated', edited)).json().status).toBe('PROCESSED');
    await shopifyDelivery(t, shop.id, 'orders/updated', edited);
    const order = await orderOf('gid://shopify/Order/7002');
    expect(order.shipping_address_city).toBe('Arlington');
    expect(coreQty(order)).toEqual({ 'ED-MUG': 2 });
    expect(await committed('ED-MUG')).toBe(mug);
    const holds = order.order_fulfillment_holds.filter((h: { active: boolean }) => h.active);
    expect(holds).toHaveLength(1);
    expect(holds[0].reason).toBe('SHOP_EDIT');
    expect(holds[0].reason_notes).toMatch(/packing had started/);
    expect(holds[0].reason_notes).toContain('shipping address: Grace Hopper, Navy Yard, 1 Compiler Road, Arlington, VA, 22201, US');
    expect(holds[0].reason_notes).toContain('-> Ada Lovelace, 12 St James Square, Richmond, VA, 23219, US');
    expect(holds[0].reason_notes).toContain('line ED-MUG: 2 -> 1');
    // The hold stops the shipment: locking for fulfillment is refused while it is active.
    const lock = await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { body: { lock_owner: 'dana', timeout_minutes: 5 } });
    expect(lock.statusCode).toBe(409);
    expect(lock.json().hold_reason).toBe('SHOP_EDIT');
  });

  it('a line the shop added that matches no fos product is held, not half-applied', async () => {
    const body = shopifyWebhookOrder(7003, [{ sku: 'ED-TEE', quantity: 1 }]);
    await shopifyDelivery(t, shop.id, 'orders/create', body);
    const edited = {
      ...body,
      line_items: [
        body.line_items[0],
        { ...body.line_items[0], id: 70039, admin_graphql_api_id: 'gid://shopify/LineItem/70039', sku: 'NOPE-1' },
      ],
    };
    await shopifyDelivery(t, shop.id, 'orders/updated', edited);
    const order = await orderOf('gid://shopify/Order/7003');
    expect(coreQty(order)).toEqual({ 'ED-TEE': 1 });
    const hold = order.order_fulfillment_holds.find((h: { active: boolean; reason: string }) => h.active && h.reason === 'SHOP_EDIT');
    expect(hold.reason_notes).toMatch(/NOPE-1 matches no fos product.*line NOPE-1: 0 -> 1/);
  });

  it('authorized payments wait on AWAITING_PAYMENT by default and ship when the shop says ship_on_authorized', async () => {
    const held = shopifyWebhookOrder(7004, [{ sku: 'ED-TEE', quantity: 1 }], { financial_status: 'authorized' });
    await shopifyDelivery(t, shop.id, 'orders/create', held);
    let order = await orderOf('gid://shopify/Order/7004');
    expect(order.payment_status).toBe('PENDING');
    expect(order.order_fulfillment_holds).toEqual([expect.objectContaining({ active: true, reason: 'AWAITING_PAYMENT' })]);
    // The setting changed: the next update of the same order lifts the payment hold.
    const patch = await t.call('PATCH', `/v1/ops/shops/${shop.id}`, { body: { settings: { ship_on_authorized: true } } });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json().settings).toMatchObject({ ship_on_authorized: true, shipment_tracking: false });
    await shopifyDelivery(t, shop.id, 'orders/updated', held);
    order = await orderOf('gid://shopify/Order/7004');
    expect(order.payment_status).toBe('PENDING');
    expect(order.order_fulfillment_holds.filter((h: { active: boolean }) => h.active)).toEqual([]);
    await shopifyDelivery(
      t,
      shop.id,
      'orders/create',
      shopifyWebhookOrder(7005, [{ sku: 'ED-TEE', quantity: 1 }], { financial_status: 'authorized' }),
    );
    expect((await orderOf('gid://shopify/Order/7005')).order_fulfillment_holds).toEqual([]);
    await t.call('PATCH', `/v1/ops/shops/${shop.id}`, { body: { settings: { ship_on_authorized: false } } });
  });
});

describe('WooCommerce order.updated', () => {
  it('applies a changed quantity and address before packing; a removed line releases its stock', async () => {
    const sock = await committed('ED-SOCK');
    const tee = await committed('ED-TEE');
    const body = wooOrder(8801, [
      { sku: 'ED-SOCK', quantity: 2 },
      { sku: 'ED-TEE', quantity: 1 },
    ]);
    await wooDelivery(t, woo.id, 'order.created', body);
    const shipping = { ...body.shipping, address_1: '1 Station Road', city: 'Bletchley', postcode: 'MK2 2AB' };
    const edited = { ...body, shipping, line_items: [{ ...body.line_items[0], quantity: 4 }] };
    expect((await wooDelivery(t, woo.id, 'order.updated', edited)).json().status).toBe('PROCESSED');
    const order = await orderOf('8801');
    expect(order.shipping_address_city).toBe('Bletchley');
    expect(coreQty(order)).toEqual({ 'ED-SOCK': 4, 'ED-TEE': 0 });
    expect(await committed('ED-SOCK')).toBe(sock + 4);
    expect(await committed('ED-TEE')).toBe(tee);
    await ledgerBalanced(t.db, Object.values(ids));
  });
});
