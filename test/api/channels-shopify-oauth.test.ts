import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { shopifyDouble, type ShopifyDouble } from '../helpers/platform-doubles.js';
import { DEFAULT_APP_SCOPES } from '../../src/connectors/channels/shopify/oauth.js';
import { shopifyQueryHmac } from '../../src/connectors/channels/shopify/auth.js';

// The authorization-code install of an app a 3PL distributes (issue 37 item 4): an install link
// for a merchant's shop, a redirect to the shop's authorize page with a sealed state and a nonce
// cookie, and a callback accepted only with Shopify's hmac (app secret over the sorted query),
// the state and the same browser's nonce; the code becomes an offline token and the shop is made.

let t: TestApp;
let shopify: ShopifyDouble;
let merchantTeamId: string;
const SHOP = 'merchant-a.myshopify.com';

beforeAll(async () => {
  shopify = await shopifyDouble({ clientId: 'app-id', clientSecret: 'app-secret' });
  t = await testApp({
    allowPrivateWebhooks: true,
    publicUrl: 'https://fos.example.com',
    shopifyApp: {
      client_id: 'app-id',
      client_secret: 'app-secret',
      scopes: DEFAULT_APP_SCOPES,
      authorize_url: 'https://{shop}/admin/oauth/authorize',
      api_base_url: shopify.url,
    },
  });
  merchantTeamId = (await t.merchant()).teamId;
});
afterAll(async () => {
  await t?.close();
  await shopify?.close();
});

/** The install link, opened: the authorize URL Shopify would show and the nonce cookie set. */
async function openInstallLink(name: string) {
  const link = await t.call('POST', '/v1/ops/shops/shopify/install', {
    body: { name, shop_domain: SHOP, merchant_team_id: merchantTeamId },
  });
  expect(link.statusCode, link.body).toBe(201);
  expect(link.json().redirect_uri).toBe('https://fos.example.com/v1/channels/shopify/callback');
  const url = new URL(link.json().install_url);
  expect(url.origin).toBe('https://fos.example.com');
  const res = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
  expect(res.statusCode, res.body).toBe(302);
  const to = new URL(res.headers.location as string);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  return { to, cookie };
}

const callback = (query: Record<string, string>, cookie?: string) =>
  t.app.inject({ method: 'GET', url: `/v1/channels/shopify/callback?${new URLSearchParams(query)}`, headers: cookie ? { cookie } : {} });

function shopifyRedirect(state: string, code: string, secret = 'app-secret') {
  const q: Record<string, string> = {
    code,
    host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvbWVyY2hhbnQtYQ',
    shop: SHOP,
    state,
    timestamp: '1764300000',
  };
  return { ...q, hmac: shopifyQueryHmac(secret, q) };
}

describe('Shopify OAuth install', () => {
  it("redirects to the shop's authorize page with the app, scopes, callback and state", async () => {
    const { to, cookie } = await openInstallLink('OAuth Shop');
    expect(to.origin + to.pathname).toBe(`https://${SHOP}/admin/oauth/authorize`);
    expect(to.searchParams.get('client_id')).toBe('app-id');
    expect(to.searchParams.get('scope')).toBe(DEFAULT_APP_SCOPES);
    expect(to.searchParams.get('redirect_uri')).toBe('https://fos.example.com/v1/channels/shopify/callback');
    expect(to.searchParams.get('state')).toBeTruthy();
    expect(cookie).toMatch(/^fos_shopify_nonce=[0-9a-f]{32}$/);
  });

  it('refuses a callback whose hmac does not verify, or from another browser, and exchanges nothing', async () => {
    const { to, cookie } = await openInstallLink('OAuth Shop');
    shopify.codes.add('code-bad');
    const state = to.searchParams.get('state')!;
    const forged = await callback(shopifyRedirect(state, 'code-bad', 'not-the-secret'), cookie);
    expect(forged.statusCode).toBe(401);
    expect(forged.json().detail).toContain('hmac does not verify');
    const tampered = await callback({ ...shopifyRedirect(state, 'code-bad'), shop: 'other.myshopify.com' }, cookie);
    expect(tampered.statusCode).toBe(401);
    const noCookie = await callback(shopifyRedirect(state, 'code-bad'));
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json().detail).toContain('nonce');
    expect(shopify.codes.has('code-bad')).toBe(true);
    expect(shopify.grants).toHaveLength(0);
    expect(await t.db.prisma.shop.count({ where: { name: 'OAuth Shop' } })).toBe(0);
  });

  it('exchanges the code for an offline token and creates the shop; a second install updates it', async () => {
    const { to, cookie } = await openInstallLink('OAuth Shop');
    shopify.codes.add('code-1');
    const res = await callback(shopifyRedirect(to.searchParams.get('state')!, 'code-1'), cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(`${SHOP} is connected`);
    const exchange = shopify.calls.find((c) => c.path === '/admin/oauth/access_token')!;
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toEqual({
      client_id: 'app-id',
      client_secret: 'app-secret',
      code: 'code-1',
    });
    const shop = await t.db.prisma.shop.findFirstOrThrow({ where: { name: 'OAuth Shop', merchant_team_id: merchantTeamId } });
    const view = (await t.call('GET', `/v1/ops/shops/${shop.id}`)).json();
    expect(view.connection).toMatchObject({ shop_domain: SHOP, api_base_url: shopify.url });
    expect(shopify.calls.filter((c) => c.path.endsWith('graphql.json')).at(-1)!.headers['x-shopify-access-token']).toBe('shpua_1');
    // The same browser cannot replay the code (Shopify's codes are one-use); a new install updates the shop.
    const again = await openInstallLink('OAuth Shop');
    shopify.codes.add('code-2');
    expect((await callback(shopifyRedirect(again.to.searchParams.get('state')!, 'code-2'), again.cookie)).statusCode).toBe(200);
    expect(await t.db.prisma.shop.count({ where: { merchant_team_id: merchantTeamId } })).toBe(1);
    expect((await t.call('POST', `/v1/ops/shops/${shop.id}/check`)).json().ok).toBe(true);
    expect(shopify.calls.filter((c) => c.path.endsWith('graphql.json')).at(-1)!.headers['x-shopify-access-token']).toBe('shpua_2');
  });

  it('says plainly when no app is configured', async () => {
    const bare = await testApp({ shopifyApp: null });
    try {
      const m = await bare.merchant();
      const res = await bare.call('POST', '/v1/ops/shops/shopify/install', {
        body: { name: 'X', shop_domain: SHOP, merchant_team_id: m.teamId },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toContain('FOS_SHOPIFY_CLIENT_ID');
    } finally {
      await bare.close();
    }
  });
});
