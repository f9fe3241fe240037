import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { shopifyDelivery } from '../helpers/channels.js';
import { shopifyDouble, shopifyWebhookOrder, type ShopifyDouble } from '../helpers/platform-doubles.js';

// Shopify's Dev Dashboard apps (issue 37 item 4): fos is given the app's client id and secret,
// asks the shop's /admin/oauth/access_token for a token by the client-credentials grant, keeps it
// sealed, asks again before its 24 hours run out and once on a 401 (a second 401 is reported).

let t: TestApp;
let shopify: ShopifyDouble;
let merchantTeamId: string;

beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  shopify = await shopifyDouble({ clientId: 'cid-123', clientSecret: 'csec-456' });
  merchantTeamId = (await t.merchant()).teamId;
});
afterAll(async () => {
  await shopify?.close();
  await t?.close();
});

const connect = (name: string, secret = 'csec-456') =>
  t.call('POST', '/v1/ops/shops', {
    body: {
      name,
      shop_type: 'SHOPIFY',
      merchant_team_id: merchantTeamId,
      connection: { shop_domain: 'cc.myshopify.com', client_id: 'cid-123', client_secret: secret, api_base_url: shopify.url },
    },
  });
const check = async (id: string) => (await t.call('POST', `/v1/ops/shops/${id}/check`)).json();
const graphqlTokens = () => shopify.calls.filter((c) => c.path.endsWith('/graphql.json')).map((c) => c.headers['x-shopify-access-token']);

describe('Shopify client-credentials grant', () => {
  it('gets a token with the client id and secret, stores it sealed, and reuses it while it is fresh', async () => {
    const res = await connect('CC Shop');
    expect(res.statusCode, res.body).toBe(201);
    const grant = shopify.calls.find((c) => c.path === '/admin/oauth/access_token')!;
    expect(grant.method).toBe('POST');
    expect(grant.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(grant.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'cid-123',
      client_secret: 'csec-456',
    });
    expect(graphqlTokens()).toEqual(['shpca_1']);
    const row = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: res.json().id } });
    expect(row.credentials).not.toMatch(/csec-456|shpca_1/);
    expect(res.body).not.toMatch(/csec-456|shpca_1/);
    expect((await check(res.json().id)).ok).toBe(true);
    expect(shopify.grants).toHaveLength(1);
    expect(graphqlTokens()).toEqual(['shpca_1', 'shpca_1']);
    // Webhooks of such an app are signed with its client secret.
    const delivery = await shopifyDelivery(t, res.json().id, 'orders/create', shopifyWebhookOrder(501, [{ sku: 'X', quantity: 1 }]), {
      secret: 'csec-456',
    });
    expect(delivery.statusCode).toBe(200);
  });

  it('asks again on a 401 (once), and before a token runs out', async () => {
    const id = (await connect('CC Shop 2')).json().id;
    const grants = shopify.grants.length;
    shopify.revokeTokens();
    shopify.expiresIn = 300; // less than fos's 10-minute margin
    expect((await check(id)).ok).toBe(true);
    expect(shopify.grants.length).toBe(grants + 1);
    const fourth = `shpca_${grants + 1}`;
    expect(graphqlTokens().slice(-2)).toEqual([`shpca_${grants}`, fourth]); // refused, then the new one
    // The stored token expires within the margin: the next call asks first, no 401 on the way.
    shopify.expiresIn = 86399;
    const before = shopify.calls.length;
    expect((await check(id)).ok).toBe(true);
    expect(shopify.calls.slice(before).map((c) => c.path.split('/').at(-1))).toEqual(['access_token', 'graphql.json']);
    expect(shopify.grants.length).toBe(grants + 2);
    expect((await check(id)).ok).toBe(true);
    expect(shopify.grants.length).toBe(grants + 2);
  });

  it('reports the 401 when the new token is refused too, after one new token only', async () => {
    const id = (await connect('CC Shop 3')).json().id;
    const grants = shopify.grants.length;
    shopify.acceptIssued = false;
    try {
      const r = await check(id);
      expect(r).toMatchObject({ ok: false, error: expect.stringContaining('HTTP 401') });
      expect(shopify.grants.length).toBe(grants + 1);
    } finally {
      shopify.acceptIssued = true;
    }
  });

  it('refuses a wrong client secret with Shopify’s reason and stores nothing', async () => {
    const res = await connect('CC Bad', 'wrong');
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('invalid_client');
    expect(await t.db.prisma.shop.count({ where: { name: 'CC Bad' } })).toBe(0);
  });
});
