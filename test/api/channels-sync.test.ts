import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, connectShopify, connectWoo, shopifyDelivery, stockedProduct } from '../helpers/channels.js';
import { shopifyOrderNode, shopifyWebhookOrder, wooOrder, type ShopifyDouble, type WooDouble } from '../helpers/platform-doubles.js';
import { pushStock } from '../../src/domain/channels/stock.js';
import { until } from '../helpers/until.js';
import { syncConnection, syncDueShops } from '../../src/domain/channels/sync.js';

// Orders in by sync (cursor pages on Shopify, page headers on WooCommerce; first sync backfills
// open orders, later ones pull what changed), listings into product_listing_variants linked by
// SKU, and stock out coalesced into one call per shop.

let w: ChannelsWorld;
let t: TestApp;
let shopify: ShopifyDouble;
let woo: WooDouble;
let merchant: { teamId: string };
let cup: { product: { id: string } };

beforeAll(async () => {
  w = await channelsWorld();
  ({ t, merchant, shopify, woo } = w);
  cup = await stockedProduct(t, merchant.teamId, 'CUP-1', 500);
  await stockedProduct(t, merchant.teamId, 'SAUCER-1', 500);
});
afterAll(async () => {
  await w?.close();
});

const variant = (n: number, sku: string) => ({
  id: `gid://shopify/ProductVariant/${n}`,
  sku,
  barcode: `0000${n}`,
  title: 'Blue',
  displayName: `Cup - Blue ${n}`,
  price: '12.50',
  image: { url: `https://cdn.example/${n}.jpg` },
  product: { id: 'gid://shopify/Product/77', title: 'Cup', featuredImage: null },
  inventoryItem: {
    id: `gid://shopify/InventoryItem/${n}`,
    harmonizedSystemCode: '6912.00',
    countryCodeOfOrigin: 'PT',
    measurement: { weight: { unit: 'GRAMS', value: 300 } },
  },
});

describe('Shopify sync', () => {
  let shopId: string;

  it('backfills open orders page by page and imports listings linked by SKU', async () => {
    for (let i = 0; i < 60; i++)
      shopify.orders.push(shopifyOrderNode(3000 + i, [{ sku: 'CUP-1', quantity: 1, variant: 'gid://shopify/ProductVariant/1' }]));
    shopify.orders.push(shopifyOrderNode(3999, [{ sku: 'CUP-1', quantity: 1 }], { cancelledAt: '2026-11-20T11:00:00Z' }));
    shopify.variants.push(variant(1, 'CUP-1'), variant(2, 'SAUCER-1'), variant(3, 'UNKNOWN-9'));
    shopId = (await connectShopify(t, merchant.teamId, shopify, { location_id: 'gid://shopify/Location/1' })).id;
    const res = await t.call('POST', `/v1/ops/shops/${shopId}/sync`, { body: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ orders: { created: 60, failed: 0 }, listings: { imported: 2, unmatched: 1 }, since: null });
    const pages = shopify.calls.filter((c) => /orders\(/.test(c.body?.query ?? ''));
    expect(pages.map((c) => [c.body.variables.query, c.body.variables.after])).toEqual([
      ['status:open', null],
      ['status:open', '50'],
    ]);
    expect(await t.db.prisma.order.count({ where: { shop_id: shopId } })).toBe(60);

    const product = (await t.call('GET', `/v1/ops/products/${cup.product.id}`)).json();
    expect(product.product_listing_variant_count.SHOPIFY).toBe(1);
    expect(product.product_listing_variants[0]).toMatchObject({
      shop_id: shopId,
      shop_type: 'SHOPIFY',
      remote_id: 'gid://shopify/ProductVariant/1',
      remote_shopify_inventory_item_id: 'gid://shopify/InventoryItem/1',
      product_listing_id: 'gid://shopify/Product/77',
      product_listing_name: 'Cup',
      sku: 'CUP-1',
      barcode: '00001',
      name: 'Cup - Blue 1',
      image_url: 'https://cdn.example/1.jpg',
      price: 12.5,
      currency: 'USD',
      hs_code: '6912.00',
      country_of_origin: 'PT',
      weight: 300,
      weight_unit: 'G',
    });
    // Every field of spec 2.3's product_listing_variants.
    const teamFields = ['team', 'merchant_team', 'fulfiller_team'].flatMap((k) => [`${k}_id`, `${k}_name`]);
    expect(Object.keys(product.product_listing_variants[0]).sort()).toEqual(
      [
        ...['id', 'product_id', 'product_type', 'product_listing_id', 'product_listing_name', 'shop_id', 'shop_name', 'shop_slug'],
        ...['shop_type', 'remote_id', 'remote_shopify_inventory_item_id', 'sku', 'barcode', 'name', 'image_url', 'price', 'currency'],
        ...['hs_code', 'country_of_origin', 'weight', 'weight_unit', 'synced_at', 'created_at', 'updated_at', ...teamFields],
      ].sort(),
    );
    expect(product.product_listing_variants[0]).toMatchObject({ product_id: cup.product.id, shop_slug: expect.any(String) });
    expect(product.product_listing_variants[0].synced_at).not.toBeNull();
    const listed = (await t.call('GET', '/v1/ops/products', { query: { has_remote_products: true, limit: 100 } }))
      .json()
      .data.map((p: { sku: string }) => p.sku);
    expect(listed.sort()).toEqual(['CUP-1', 'SAUCER-1']);
    // Lines of synced orders matched by listing variant.
    const line = await t.db.prisma.orderLineItem.findFirstOrThrow({ where: { order: { shop_id: shopId }, kind: 'ORIGINAL' } });
    expect(line.product_listing_variant_id).not.toBeNull();
  });

  it('pulls only what changed since the last sync, through the same idempotent intake', async () => {
    const before = shopify.calls.length;
    shopify.orders[0] = { ...shopify.orders[0], updatedAt: '2099-01-01T00:00:00Z', cancelledAt: '2099-01-01T00:00:00Z' };
    const res = await t.call('POST', `/v1/ops/shops/${shopId}/sync`, { body: {} });
    expect(res.json().orders).toMatchObject({ created: 0, cancelled: 1 });
    const q = shopify.calls.slice(before).find((c) => /orders\(/.test(c.body?.query ?? ''))!;
    expect(q.body.variables.query).toMatch(/^updated_at:>='\d{4}-\d\d-\d\dT/);
    expect(await t.db.prisma.order.count({ where: { shop_id: shopId } })).toBe(60);
  });

  it('syncs each shop on one replica at a time in the background', async () => {
    const before = shopify.calls.length;
    const later = new Date(Date.now() + 60 * 60_000);
    const [a, b] = await Promise.all([
      syncDueShops(t.db, { allowPrivate: true }, 15 * 60_000, later),
      syncDueShops(t.db, { allowPrivate: true }, 15 * 60_000, later),
    ]);
    // One shop is due: exactly one of the two passes syncs it, however their steps interleave.
    expect(a + b).toBe(1);
    const checks = shopify.calls.slice(before).filter((c) => /shop \{/.test(c.body?.query ?? ''));
    expect(checks).toHaveLength(1);
    // Synced at `later`: not due again for that pass time.
    expect(await syncDueShops(t.db, { allowPrivate: true }, 15 * 60_000, later)).toBe(0);
    // A pass that read the row before another replica synced and released it does not sync again.
    const stale = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
    const evenLater = new Date(later.getTime() + 60 * 60_000);
    expect(await syncConnection(t.db, stale, { allowPrivate: true }, { now: evenLater })).not.toBeNull();
    expect(await syncConnection(t.db, stale, { allowPrivate: true }, { now: evenLater, ifUnchanged: true })).toBeNull();
  });

  it('pushes available stock to the mapped location, one call for a burst of changes', async () => {
    const first = await pushStock(t.db, { allowPrivate: true });
    expect(first.pushed).toBe(2);
    const set = shopify.inventorySets.at(-1);
    expect(set).toMatchObject({ name: 'available', reason: 'correction' });
    expect(set).not.toHaveProperty('ignoreCompareQuantity'); // removed in API 2026-04
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: cup.product.id } });
    expect(set.quantities).toContainEqual({
      inventoryItemId: 'gid://shopify/InventoryItem/1',
      locationId: 'gid://shopify/Location/1',
      quantity: level.on_hand - level.committed - level.unavailable,
      changeFromQuantity: null, // absolute figures: no compare-and-swap check
    });
    expect((await pushStock(t.db, { allowPrivate: true })).pushed).toBe(0); // nothing changed: no call

    const calls = shopify.inventorySets.length;
    for (let i = 0; i < 10; i++)
      await shopifyDelivery(t, shopId, 'orders/create', shopifyWebhookOrder(4100 + i, [{ sku: 'CUP-1', quantity: 1 }]));
    expect((await pushStock(t.db, { allowPrivate: true })).pushed).toBe(1);
    expect(shopify.inventorySets.length).toBe(calls + 1);
    const now = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: cup.product.id } });
    expect(shopify.inventorySets.at(-1).quantities).toEqual([
      {
        inventoryItemId: 'gid://shopify/InventoryItem/1',
        locationId: 'gid://shopify/Location/1',
        quantity: now.on_hand - now.committed,
        changeFromQuantity: null,
      },
    ]);

    // A shop pinned to an API version before 2026-01 gets the older opt-out.
    const pinned = await t.call('PATCH', `/v1/ops/shops/${shopId}`, { body: { connection: { api_version: '2025-10' } } });
    expect(pinned.statusCode, pinned.body).toBe(200);
    await shopifyDelivery(t, shopId, 'orders/create', shopifyWebhookOrder(4200, [{ sku: 'CUP-1', quantity: 1 }]));
    expect((await pushStock(t.db, { allowPrivate: true })).pushed).toBe(1);
    const old = shopify.inventorySets.at(-1);
    expect(old).toMatchObject({ ignoreCompareQuantity: true, quantities: [{ quantity: now.on_hand - now.committed - 1 }] });
    expect(old.quantities[0]).not.toHaveProperty('changeFromQuantity');
    expect(shopify.calls.at(-1)!.path).toBe('/admin/api/2025-10/graphql.json');
  });
});

describe('WooCommerce sync', () => {
  it('walks the page headers, imports products and variations, and sets stock_quantity', async () => {
    for (let i = 0; i < 55; i++) woo.orders.push(wooOrder(6000 + i, [{ sku: 'SAUCER-1', quantity: 1 }]));
    woo.products.push({
      id: 501,
      name: 'Saucer',
      type: 'simple',
      sku: 'SAUCER-1',
      price: '4.00',
      weight: '0.2',
      images: [{ src: 'https://woo.example/s.jpg' }],
    });
    const shop = await connectWoo(t, merchant.teamId, woo);
    const res = await t.call('POST', `/v1/ops/shops/${shop.id}/sync`, { body: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ orders: { created: 55 }, listings: { imported: 1, unmatched: 0 } });
    const pages = woo.calls.filter((c) => c.path === '/wp-json/wc/v3/orders');
    expect(pages.map((c) => [c.query.page, c.query.per_page, c.query.status])).toEqual([
      ['1', '50', 'pending,processing,on-hold'],
      ['2', '50', 'pending,processing,on-hold'],
    ]);
    const listing = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shop.id } });
    expect(listing).toMatchObject({
      remote_id: '501',
      product_listing_id: '501',
      sku: 'SAUCER-1',
      currency: 'EUR',
      price: 4,
      image_url: 'https://woo.example/s.jpg',
    });

    await pushStock(t.db, { allowPrivate: true });
    // A background stock pass of the app may hold the shop's lease and push it instead: either way one PUT.
    const puts = () => woo.calls.filter((c) => c.method === 'PUT' && c.path === '/wp-json/wc/v3/products/501');
    await until(() => puts().length > 0, 'the stock push to WooCommerce');
    const put = puts();
    expect(put).toHaveLength(1);
    expect(put[0]!.body).toMatchObject({ manage_stock: true, stock_quantity: expect.any(Number) });
  });
});
