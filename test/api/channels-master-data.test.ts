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
import { shopifyWebhookOrder, wooOrder, type ShopifyDouble, type WooDouble } from '../helpers/platform-doubles.js';

// Clean master data through sales-channel intake (issue 25 item 6): an order whose country is no
// ISO 3166-1 code is held (ADDRESS_VERIFICATION_FAILED) before anything can ship; one in a currency
// that is no ISO 4217 code is not stored (the delivery FAILED with the reason); listing variants
// keep only valid origin countries, currencies and HS codes (null otherwise).

let w: ChannelsWorld;
let t: TestApp;
let shopify: ShopifyDouble;
let woo: WooDouble;
let merchant: { teamId: string };
let shop: { id: string };
let wooShop: { id: string };

beforeAll(async () => {
  w = await channelsWorld();
  ({ t, merchant, shopify, woo } = w);
  shop = await connectShopify(t, merchant.teamId, shopify);
  wooShop = await connectWoo(t, merchant.teamId, woo);
  await stockedProduct(t, merchant.teamId, 'ISO-1', 50);
});
afterAll(async () => {
  await w?.close();
});

const orderByRemote = (remoteId: string) => t.db.prisma.order.findMany({ where: { remote_id: remoteId }, include: { holds: true } });

describe('ISO codes on channel intake', () => {
  it('Shopify: a country that is no ISO code (ZZ, USA) holds the order; a valid one does not', async () => {
    for (const [id, country_code] of [
      [6101, 'ZZ'],
      [6102, 'USA'],
    ] as const) {
      const body = shopifyWebhookOrder(id, [{ sku: 'ISO-1', quantity: 1 }]);
      body.shipping_address = { ...body.shipping_address, country_code, country: 'Nowhere' };
      const res = await shopifyDelivery(t, shop.id, 'orders/create', body);
      expect(res.json()).toMatchObject({ status: 'PROCESSED' });
      const [order] = await orderByRemote(`gid://shopify/Order/${id}`);
      expect(order.address_verified).toBe(false);
      expect(order.holds.filter((h) => h.active).map((h) => h.reason)).toEqual(['ADDRESS_VERIFICATION_FAILED']);
      expect(order.holds[0].reason_notes).toMatch(/ISO 3166-1 alpha-2/);
    }
    const ok = await shopifyDelivery(t, shop.id, 'orders/create', shopifyWebhookOrder(6103, [{ sku: 'ISO-1', quantity: 1 }]));
    expect(ok.json()).toMatchObject({ status: 'PROCESSED' });
    const [order] = await orderByRemote('gid://shopify/Order/6103');
    expect(order.holds.filter((h) => h.active)).toEqual([]);
  });

  it('a currency that is no ISO 4217 code: no order stored, the delivery FAILED with the reason', async () => {
    const res = await shopifyDelivery(
      t,
      shop.id,
      'orders/create',
      shopifyWebhookOrder(6104, [{ sku: 'ISO-1', quantity: 1 }], { currency: 'USDUSDUS' }),
    );
    expect(res.json()).toMatchObject({ status: 'FAILED' });
    expect(await orderByRemote('gid://shopify/Order/6104')).toEqual([]);
    const list = await t.call('GET', `/v1/ops/shops/${shop.id}/deliveries`, { query: { status: 'FAILED' } });
    expect(list.json().data.find((d: { id: string }) => d.id === res.json().delivery_id).error).toMatch(/USDUSDUS.*ISO 4217/);
  });

  it('WooCommerce: a bad shipping country holds the order; a bad currency stores nothing', async () => {
    const body = wooOrder(7101, [{ sku: 'ISO-1', quantity: 1 }]);
    body.shipping = { ...body.shipping, country: 'XX' };
    const res = await wooDelivery(t, wooShop.id, 'order.created', body);
    expect(res.statusCode, res.body).toBe(200);
    const [order] = await t.db.prisma.order.findMany({
      where: { shop_id: wooShop.id, remote_id: '7101' },
      include: { holds: true },
    });
    expect(order.holds.map((h) => h.reason)).toContain('ADDRESS_VERIFICATION_FAILED');
    const lock = await t.call(
      'POST',
      `/v1/ops/fulfillment-orders/${(await t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id } })).id}/lock`,
      {
        body: { lock_owner: 'x', timeout_minutes: 5 },
      },
    );
    expect(lock.statusCode).toBe(409);

    const euro = await wooDelivery(t, wooShop.id, 'order.created', wooOrder(7102, [{ sku: 'ISO-1', quantity: 1 }], { currency: 'EURO' }));
    expect(euro.json()).toMatchObject({ status: 'FAILED' });
    expect(await t.db.prisma.order.count({ where: { shop_id: wooShop.id, remote_id: '7102' } })).toBe(0);
  });
  it('a synced listing variant keeps only valid origin country, currency and HS code', async () => {
    shopify.variants.push({
      id: 'gid://shopify/ProductVariant/61',
      sku: 'ISO-1',
      barcode: null,
      title: 'Blue',
      displayName: 'Iso - Blue',
      price: '12.50',
      image: null,
      product: { id: 'gid://shopify/Product/61', title: 'Iso', featuredImage: null },
      inventoryItem: {
        id: 'gid://shopify/InventoryItem/61',
        harmonizedSystemCode: 'mugs',
        countryCodeOfOrigin: 'ZZ',
        measurement: { weight: { unit: 'GRAMS', value: 300 } },
      },
    });
    const res = await t.call('POST', `/v1/ops/shops/${shop.id}/sync`, { body: {} });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { remote_id: 'gid://shopify/ProductVariant/61' } });
    expect(stored).toMatchObject({ hs_code: null, country_of_origin: null });
  });
});

describe("channel intake matches SKUs within the shop's merchant", () => {
  it("a SKU another merchant also uses (with an older product) takes the shop merchant's product", async () => {
    const other = await t.merchant();
    const theirs = await stockedProduct(t, other.teamId, 'SHARED-1', 5);
    const ours = await stockedProduct(t, merchant.teamId, 'SHARED-1', 5);
    const res = await shopifyDelivery(t, shop.id, 'orders/create', shopifyWebhookOrder(6201, [{ sku: 'SHARED-1', quantity: 1 }]));
    expect(res.json()).toMatchObject({ status: 'PROCESSED' });
    const [order] = await t.db.prisma.order.findMany({ where: { remote_id: 'gid://shopify/Order/6201' }, include: { line_items: true } });
    expect([...new Set(order.line_items.map((l) => l.product_id))]).toEqual([ours.product.id]);
    expect(theirs.product.id).not.toBe(ours.product.id);
  });
});
