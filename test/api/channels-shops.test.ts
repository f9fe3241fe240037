import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOPIFY_API_VERSION } from '../../src/connectors/channels/shopify/reads.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { shopifyDelivery } from '../helpers/channels.js';
import { shopifyDouble, shopifyWebhookOrder, wooDouble, type ShopifyDouble, type WooDouble } from '../helpers/platform-doubles.js';

// Connecting shops: the check call reaches the platform double with the credentials, a refusal
// is a clear 400 and stores nothing, credentials are sealed and never returned, and the shop
// can be listed, updated, disabled and deleted in both path families.

let t: TestApp;
let shopify: ShopifyDouble;
let woo: WooDouble;
let merchant: { teamId: string; token: string };

beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  merchant = await t.merchant();
  shopify = await shopifyDouble({ token: 'shpat_good' });
  woo = await wooDouble({ key: 'ck_good', secret: 'cs_1' });
});
afterAll(async () => {
  await shopify?.close();
  await woo?.close();
  await t?.close();
});

/** A loopback address nothing listens on. */
async function closedPort() {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}`;
}

const shopifyBody = (over: Record<string, unknown> = {}) => ({
  name: `Shopify ${Math.random().toString(36).slice(2, 8)}`,
  shop_type: 'SHOPIFY',
  merchant_team_id: merchant.teamId,
  connection: {
    shop_domain: 'double.myshopify.com',
    access_token: 'shpat_good',
    webhook_secret: 'whsec_1',
    api_base_url: shopify.url,
    ...over,
  },
});

describe('shops', () => {
  it('connects a Shopify shop after one real check call, and never shows or stores the token in clear', async () => {
    const before = shopify.calls.length;
    const res = await t.call('POST', '/v1/ops/shops', { body: shopifyBody() });
    expect(res.statusCode, res.body).toBe(201);
    const shop = res.json();
    expect(shop).toMatchObject({
      shop_type: 'SHOPIFY',
      connected: true,
      active: true,
      merchant_team_id: merchant.teamId,
      fulfiller_team_id: t.teamId,
    });
    expect(shop.connection).toEqual({
      shop_domain: 'double.myshopify.com',
      api_base_url: shopify.url,
      api_version: SHOPIFY_API_VERSION,
      webhook_path: `/v1/channels/${shop.id}/webhooks`,
    });
    expect(shop.health).toMatchObject({ last_check_ok: true, webhooks_received: 0 });
    expect(res.body).not.toContain('shpat_good');
    expect(res.body).not.toContain('whsec_1');
    const call = shopify.calls[before]!;
    expect(call.path).toBe(`/admin/api/${SHOPIFY_API_VERSION}/graphql.json`);
    expect(call.headers['x-shopify-access-token']).toBe('shpat_good');
    expect(call.body.query).toContain('shop { name');
    const row = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shop.id } });
    expect(row.credentials).toMatch(/^v1\./);
    expect(row.credentials).not.toContain('shpat_good');
    const got = await t.call('GET', `/v1/ops/shops/${shop.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain('shpat_good');
  });

  it('says clearly what is wrong and stores nothing: bad token, unreachable, private address without the flag', async () => {
    const name = 'Refused shop';
    const bad = await t.call('POST', '/v1/ops/shops', { body: { ...shopifyBody({ access_token: 'shpat_bad' }), name } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/Shopify refused the access token \(HTTP 401\)/);
    const down = await t.call('POST', '/v1/ops/shops', { body: { ...shopifyBody({ api_base_url: await closedPort() }), name } });
    expect(down.statusCode).toBe(400);
    expect(down.json().detail).toMatch(/unreachable \(connection refused\)/);
    expect(await t.db.prisma.shop.count({ where: { name } })).toBe(0);

    const strict = await testApp();
    try {
      const m = await strict.merchant();
      const res = await strict.call('POST', '/v1/ops/shops', { body: { ...shopifyBody(), merchant_team_id: m.teamId } });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/--allow-private-network/);
    } finally {
      await strict.close();
    }
  });

  it('refuses a platform shop without its connection, connection fields of the wrong platform and unknown fields', async () => {
    // Every platform but MANUAL has a connector: each needs its connection.
    for (const shop_type of ['AMAZON', 'ETSY']) {
      const res = await t.call('POST', '/v1/ops/shops', { body: { name: shop_type, shop_type, merchant_team_id: merchant.teamId } });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/connection/);
    }
    const manual = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'Manual',
        shop_type: 'MANUAL',
        merchant_team_id: merchant.teamId,
        connection: { client_id: 'x', client_secret: 'y', refresh_token: 'z' },
      },
    });
    expect(manual.statusCode).toBe(400);
    expect(manual.json().detail).toMatch(/has no connection/);
    const wrong = await t.call('POST', '/v1/ops/shops', { body: { ...shopifyBody(), shop_type: 'WOOCOMMERCE' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toMatch(/store_url/);
    const extra = await t.call('POST', '/v1/ops/shops', { body: { ...shopifyBody(), token: 'x' } });
    expect(extra.statusCode).toBe(400);
  });

  it('connects WooCommerce with OAuth 1.0a over http, from the merchant family too', async () => {
    const res = await t.call('POST', '/v1/merchant/shops', {
      token: merchant.token,
      body: {
        name: 'Woo store',
        shop_type: 'WOOCOMMERCE',
        connection: {
          store_url: 'https://woo.example',
          consumer_key: 'ck_good',
          consumer_secret: 'cs_1',
          webhook_secret: 'wc_sec',
          api_base_url: woo.url,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      shop_type: 'WOOCOMMERCE',
      merchant_team_id: merchant.teamId,
      fulfiller_team_id: t.teamId,
      connection: { shop_domain: 'https://woo.example' },
    });
    const call = woo.calls.at(-1)!;
    expect(call).toMatchObject({ method: 'GET', path: '/wp-json/wc/v3/system_status' });
    expect(call.query).toMatchObject({ oauth_consumer_key: 'ck_good', oauth_signature_method: 'HMAC-SHA256' });
    // The fulfiller sees the merchant's shop; the merchant does not see other merchants' shops.
    expect((await t.call('GET', `/v1/ops/shops/${res.json().id}`)).statusCode).toBe(200);
    const other = await t.merchant();
    expect((await t.call('GET', `/v1/merchant/shops/${res.json().id}`, { token: other.token })).statusCode).toBe(404);
  });

  it('lists, renames, disables, checks and deletes', async () => {
    const shop = (await t.call('POST', '/v1/ops/shops', { body: shopifyBody() })).json();
    const list = await t.call('GET', '/v1/ops/shops', { query: { shop_type: 'SHOPIFY' } });
    expect(list.json().data.map((s: { id: string }) => s.id)).toContain(shop.id);
    const renamed = await t.call('PATCH', `/v1/ops/shops/${shop.id}`, {
      body: { name: 'Renamed', active: false, settings: { notify_customer: true } },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', slug: 'renamed', active: false, settings: { notify_customer: true } });
    const badToken = await t.call('PATCH', `/v1/ops/shops/${shop.id}`, { body: { connection: { access_token: 'shpat_nope' } } });
    expect(badToken.statusCode).toBe(400);
    const check = await t.call('POST', `/v1/ops/shops/${shop.id}/check`);
    expect(check.json()).toEqual({ ok: true, platform_shop_name: 'Double Shop', error: null });
    const del = await t.call('DELETE', `/v1/ops/shops/${shop.id}`);
    expect(del.json()).toEqual({ deleted: true, disconnected: true });
    expect((await t.call('GET', `/v1/ops/shops/${shop.id}`)).statusCode).toBe(404);
  });

  it('takes a new webhook secret alone (docs: the key Shopify shows under its notification webhooks)', async () => {
    const shop = (await t.call('POST', '/v1/ops/shops', { body: shopifyBody() })).json();
    const patched = await t.call('PATCH', `/v1/ops/shops/${shop.id}`, { body: { connection: { webhook_secret: 'notif-key' } } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.body).not.toContain('notif-key');
    const body = shopifyWebhookOrder(6101, [{ sku: 'NONE', quantity: 1 }]);
    expect((await shopifyDelivery(t, shop.id, 'orders/create', body, { secret: 'whsec_1' })).statusCode).toBe(401);
    const ok = await shopifyDelivery(t, shop.id, 'orders/create', body, { secret: 'notif-key' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe('PROCESSED');
    // The access token kept working: the update's check call used the stored one.
    expect(shopify.calls.at(-1)!.headers['x-shopify-access-token']).toBe('shpat_good');
  });
});
