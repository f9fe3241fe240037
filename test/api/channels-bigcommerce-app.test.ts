import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { stockedProduct } from '../helpers/channels.js';
import { bcDelivery, bcOrder, bigcommerceDouble, type BigCommerceDouble } from '../helpers/bigcommerce-double.js';
import { bigcommerceLoginDouble, signedPayload, type LoginDouble } from '../helpers/bigcommerce-login-double.js';
import { openConnection } from '../../src/domain/channels/connection.js';

// The 3PL's BigCommerce single-click app (issue 39 item 2): a person names the merchant's store
// for its team; BigCommerce's auth callback (code, scope, context) is exchanged at a double of
// login.bigcommerce.com/oauth2/token and connects only a store named so (token sealed, the
// store/order/* hook registered at a double of the store API); a second auth renews the same
// shop; load and uninstall take only a signed_payload_jwt signed with the app's secret, for this
// app, unexpired; uninstall drops the token and leaves the orders; remove_user (one user of a
// multi-user app lost access) changes nothing, since fos keeps nothing per BigCommerce user.

const CLIENT_ID = 'bc-app-client';
const SECRET = 'bc-app-secret';
const ORIGIN = 'https://fos.example.com';
const SCOPE = 'store_v2_orders store_v2_products_read_only store_v2_information_read_only store_inventory';

let t: TestApp;
let bc: BigCommerceDouble;
let login: LoginDouble;
let merchantTeamId: string;
let shopId: string;

beforeAll(async () => {
  bc = await bigcommerceDouble({ token: 'bc_app_1' });
  login = await bigcommerceLoginDouble({
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    redirectUri: `${ORIGIN}/v1/channels/bigcommerce/auth`,
  });
  t = await testApp({
    allowPrivateWebhooks: true,
    publicUrl: ORIGIN,
    bigcommerceApp: { client_id: CLIENT_ID, client_secret: SECRET, login_url: login.url, api_url: bc.url.replace(/\/abc123$/, '') },
  });
  merchantTeamId = (await t.merchant()).teamId;
  await stockedProduct(t, merchantTeamId, 'BC-APP', 50);
});
afterAll(async () => {
  await t?.close();
  await bc?.close();
  await login?.close();
});

const get = (path: string, query: Record<string, string>) => t.app.inject({ method: 'GET', url: `${path}?${new URLSearchParams(query)}` });
function auth(code: string, token: string) {
  login.codes.set(code, { context: 'stores/abc123', token });
  return get('/v1/channels/bigcommerce/auth', { code, scope: SCOPE, context: 'stores/abc123', account_uuid: 'a6d12f8e' });
}
const jwt = (o: Partial<Parameters<typeof signedPayload>[0]> = {}) =>
  signedPayload({ secret: SECRET, clientId: CLIENT_ID, storeHash: 'abc123', ...o });
const row = () => t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });

describe('BigCommerce single-click app', () => {
  it('refuses an install of a store no team named, without asking BigCommerce for its token', async () => {
    const res = await auth('code-unnamed', 'bc_unnamed');
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('No team on this fos server awaits store abc123');
    expect(login.calls).toHaveLength(0);
    expect(await t.db.prisma.shopConnection.count({ where: { shop_domain: 'abc123' } })).toBe(0);
    expect(bc.hooks).toHaveLength(0);
  });

  it('names the store for the merchant team: the shop awaits the install, inactive and without a token', async () => {
    const res = await t.call('POST', '/v1/ops/shops/bigcommerce/app', {
      body: { name: 'BC App Store', store_hash: 'ABC123', merchant_team_id: merchantTeamId },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      store_hash: 'abc123',
      app_install: { status: 'AWAITING', awaiting_until: expect.any(String) },
      auth_callback_url: `${ORIGIN}/v1/channels/bigcommerce/auth`,
      load_callback_url: `${ORIGIN}/v1/channels/bigcommerce/load`,
      uninstall_callback_url: `${ORIGIN}/v1/channels/bigcommerce/uninstall`,
      remove_user_callback_url: `${ORIGIN}/v1/channels/bigcommerce/remove_user`,
    });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    shopId = body.shop_id;
    const view = (await t.call('GET', `/v1/ops/shops/${shopId}`)).json();
    expect(view).toMatchObject({ shop_type: 'BIGCOMMERCE', active: false, settings: { app_install: { status: 'AWAITING' } } });
    // Named again: the same shop.
    const again = await t.call('POST', '/v1/ops/shops/bigcommerce/app', {
      body: { name: 'Other name', store_hash: 'abc123', merchant_team_id: merchantTeamId },
    });
    expect(again.json().shop_id).toBe(shopId);
    // The query names the awaited store, BigCommerce's token answer another: refused, nothing stored.
    login.codes.set('code-mixed', { context: 'stores/zzz999', token: 'bc_other', anyContext: true });
    const mixed = await get('/v1/channels/bigcommerce/auth', { code: 'code-mixed', scope: SCOPE, context: 'stores/abc123' });
    expect(mixed.statusCode).toBe(401);
    expect(mixed.body).toContain('the token is for stores/zzz999');
    expect((await row()).active).toBe(false);
    // A wait that ended: refused before the code is exchanged, until the store is named again.
    const r = await row();
    const waiting = (r.settings as { app_install: object }).app_install;
    await t.db.prisma.shopConnection.update({
      where: { shop_id: shopId },
      data: { settings: { ...(r.settings as object), app_install: { ...waiting, awaiting_until: '2020-01-01T00:00:00.000Z' } } },
    });
    const calls = login.calls.length;
    const late = await auth('code-late', 'bc_app_1');
    expect(late.statusCode).toBe(403);
    expect(late.body).toContain('ask your fulfiller to name it again');
    expect(login.calls).toHaveLength(calls);
    const renamed = await t.call('POST', '/v1/ops/shops/bigcommerce/app', {
      body: { name: 'BC App Store', store_hash: 'abc123', merchant_team_id: merchantTeamId },
    });
    expect(Date.parse(renamed.json().app_install.awaiting_until)).toBeGreaterThan(Date.now());
  });

  it('auth: the code becomes the token, sealed; the shop connects and its order hook is registered', async () => {
    const before = login.calls.length;
    const res = await auth('code-1', 'bc_app_1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('BC App Store is connected to fos');
    expect(login.calls.slice(before)).toEqual([
      {
        headers: expect.objectContaining({ 'content-type': 'application/json' }),
        body: {
          client_id: CLIENT_ID,
          client_secret: SECRET,
          code: 'code-1',
          context: 'stores/abc123',
          scope: SCOPE,
          grant_type: 'authorization_code',
          redirect_uri: `${ORIGIN}/v1/channels/bigcommerce/auth`,
        },
      },
    ]);
    const r = await row();
    expect(r.credentials).not.toContain('bc_app_1');
    expect(openConnection(r).credentials).toMatchObject({ access_token: 'bc_app_1' });
    expect(r).toMatchObject({ active: true, shop_domain: 'abc123', api_base_url: bc.url, last_check_ok: true });
    expect(r.settings).toMatchObject({ app_install: { status: 'INSTALLED', scope: SCOPE, user_email: 'owner@store.example' } });
    expect(bc.calls.find((c) => c.path === 'v2/store')!.headers['x-auth-token']).toBe('bc_app_1');
    expect(bc.hooks).toEqual([
      expect.objectContaining({ scope: 'store/order/*', destination: `${ORIGIN}/v1/channels/${shopId}/webhooks` }),
    ]);
  });

  it('a second auth of the same store renews the token of the same shop (no second shop, the hook updated)', async () => {
    bc.token = 'bc_app_2';
    const res = await auth('code-2', 'bc_app_2');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('renewed');
    expect(await t.db.prisma.shopConnection.count({ where: { shop_domain: 'abc123' } })).toBe(1);
    expect(openConnection(await row()).credentials).toMatchObject({ access_token: 'bc_app_2' });
    expect(bc.hooks).toHaveLength(1);
    expect(bc.calls.filter((c) => c.method === 'PUT' && c.path.startsWith('v3/hooks/'))).toHaveLength(1);
    // A code used once is not taken again.
    const replay = await get('/v1/channels/bigcommerce/auth', { code: 'code-2', scope: SCOPE, context: 'stores/abc123' });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('Invalid verification code');
  });

  it('load: a valid signed_payload_jwt shows the shop; a forged, expired, foreign or missing one is refused', async () => {
    const ok = await get('/v1/channels/bigcommerce/load', { signed_payload_jwt: await jwt() });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).toContain('BC App Store in fos');
    expect(ok.body).toContain('INSTALLED');
    const refusals = [
      await jwt({ secret: 'not-the-secret' }),
      await jwt({ expiresIn: -3600 }),
      await jwt({ clientId: 'another-app' }),
      await jwt({ sub: 'users/1' }),
      await jwt({ alg: 'HS512' }), // the right secret, another algorithm than BigCommerce's
      (await jwt()).replace(/\.[^.]+$/, '.AAAA'),
      '',
    ];
    for (const token of refusals) {
      const res = await get('/v1/channels/bigcommerce/load', token ? { signed_payload_jwt: token } : {});
      expect(res.statusCode, token).toBe(401);
      expect(res.body).toContain('signed_payload_jwt');
    }
    const otherStore = await get('/v1/channels/bigcommerce/load', { signed_payload_jwt: await jwt({ storeHash: 'zzz999' }) });
    expect(otherStore.statusCode).toBe(403);
  });

  it('remove_user: refused unsigned or forged; signed, answered with the user, the store stays connected', async () => {
    const before = await row();
    for (const token of [await jwt({ secret: 'x' }), await jwt({ expiresIn: -3600 }), await jwt({ clientId: 'another-app' }), '']) {
      const res = await get('/v1/channels/bigcommerce/remove_user', token ? { signed_payload_jwt: token } : {});
      expect(res.statusCode, token).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    const res = await get('/v1/channels/bigcommerce/remove_user', { signed_payload_jwt: await jwt() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ store_hash: 'abc123', shop_id: shopId, user_email: 'owner@store.example', changed: false });
    const after = await row();
    expect(after).toMatchObject({ active: true, credentials: before.credentials, settings: before.settings });
    // A store no team holds: refused as uninstall refuses it.
    const other = await get('/v1/channels/bigcommerce/remove_user', { signed_payload_jwt: await jwt({ storeHash: 'zzz999' }) });
    expect(other.statusCode).toBe(403);
  });

  it('uninstall: refused unsigned; signed, drops the token and disconnects the shop; its orders stay', async () => {
    bc.orders.set(301, bcOrder(301, [{ sku: 'BC-APP', quantity: 1 }]));
    const secret = (openConnection(await row()).credentials as { webhook_secret: string }).webhook_secret;
    expect((await bcDelivery(t, shopId, 'store/order/created', 301, { secret })).json().status).toBe('PROCESSED');
    expect(await t.db.prisma.order.count({ where: { shop_id: shopId } })).toBe(1);

    const forged = await get('/v1/channels/bigcommerce/uninstall', { signed_payload_jwt: await jwt({ secret: 'x' }) });
    expect(forged.statusCode).toBe(401);
    expect(forged.headers['content-type']).toContain('application/problem+json');
    expect((await row()).active).toBe(true);

    const res = await get('/v1/channels/bigcommerce/uninstall', { signed_payload_jwt: await jwt() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ store_hash: 'abc123', shop_id: shopId, disconnected: true });
    const r = await row();
    expect(r.active).toBe(false);
    expect(openConnection(r).credentials).toMatchObject({ access_token: '' });
    expect(r.settings).toMatchObject({ app_install: { status: 'UNINSTALLED' } });
    expect(r.last_error).toContain('uninstalled');
    expect(await t.db.prisma.order.count({ where: { shop_id: shopId } })).toBe(1);
    // The disconnected shop takes no delivery and makes no call.
    expect((await bcDelivery(t, shopId, 'store/order/created', 301, { secret })).statusCode).toBe(401);
    const check = (await t.call('POST', `/v1/ops/shops/${shopId}/check`)).json();
    expect(check).toMatchObject({ ok: false, error: expect.stringContaining('no access token') });

    // Installed again by the store's owner: the same shop connects again; the hook BigCommerce
    // removed with the app (PUT answers 404) is registered anew.
    const oldHook = bc.hooks[0].id;
    bc.hooks.length = 0;
    bc.token = 'bc_app_3';
    expect((await auth('code-3', 'bc_app_3')).statusCode).toBe(200);
    expect((await row()).active).toBe(true);
    expect(bc.hooks).toEqual([
      expect.objectContaining({ scope: 'store/order/*', destination: `${ORIGIN}/v1/channels/${shopId}/webhooks` }),
    ]);
    expect((await row()).settings).toMatchObject({ webhook_id: String(bc.hooks[0].id) });
    expect(bc.hooks[0].id).not.toBe(oldHook);
    expect(await t.db.prisma.shop.count({ where: { merchant_team_id: merchantTeamId, shop_type: 'BIGCOMMERCE' } })).toBe(1);
  });

  it('another merchant team cannot name a store a team has', async () => {
    const other = await t.merchant();
    const res = await t.call('POST', '/v1/ops/shops/bigcommerce/app', {
      body: { name: 'Taken', store_hash: 'abc123', merchant_team_id: other.teamId },
    });
    expect(res.statusCode).toBe(409);
  });
});
