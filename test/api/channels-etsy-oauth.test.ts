import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { etsyDouble, type EtsyDouble } from '../helpers/etsy-double.js';
import { openConnection } from '../../src/domain/channels/connection.js';
import type { EtsyCredentials } from '../../src/connectors/channels/etsy/types.js';

// Etsy's OAuth 2.0 consent with PKCE run through fos (issue 39; docs/sales-channels.md §3e step 2):
// a person starts an authorization (the app's keys sealed, the state kept as its hash), the seller
// consents on the double's /oauth/connect, and Etsy's redirect to the public callback is answered:
// the code is exchanged with the verifier (the double checks it against the S256 challenge and the
// redirect_uri), the shop is written with its refresh token sealed, the authorization CONNECTED
// once. Unknown, expired and replayed states, and Etsy's ?error=, exchange nothing.

let t: TestApp;
let et: EtsyDouble;
let merchantTeamId: string;
const lines: string[] = [];
const ORIGIN = 'https://fos.example.com';
const REDIRECT = `${ORIGIN}/v1/channels/etsy/callback`;
const BASE = '/v1/ops/shops/etsy/authorizations';

beforeAll(async () => {
  et = await etsyDouble();
  t = await testApp({
    allowPrivateWebhooks: true,
    publicUrl: ORIGIN,
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
  merchantTeamId = (await t.merchant()).teamId;
});
afterAll(async () => {
  await t?.close();
  await et?.close();
});

async function start(name: string, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', BASE, {
    body: {
      name,
      merchant_team_id: merchantTeamId,
      client_id: et.keystring,
      client_secret: et.sharedSecret,
      api_base_url: et.url,
      connect_base_url: 'https://www.etsy.example',
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; authorize_url: string; redirect_uri: string; expires_at: string; status: string };
}

const callback = (query: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/v1/channels/etsy/callback?${new URLSearchParams(query)}` });
const status = async (id: string) => (await t.call('GET', `${BASE}/${id}`)).json();
const callsTo = (path: string) => et.calls.filter((c) => c.path === path).length;
const TOKEN = '/v3/public/oauth/token';

describe('Etsy consent through fos', () => {
  it('starts an authorization: the consent page with PKCE, the redirect URI to register, 15 minutes; keys never returned', async () => {
    const a = await start('Etsy consented');
    expect(a).toMatchObject({ status: 'PENDING', redirect_uri: REDIRECT, shop_type: 'ETSY', shop_id: null });
    const ttl = Date.parse(a.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const u = new URL(a.authorize_url);
    expect(u.origin + u.pathname).toBe('https://www.etsy.example/oauth/connect');
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: et.keystring,
      redirect_uri: REDIRECT,
      scope: 'transactions_r transactions_w listings_r listings_w shops_r',
      code_challenge_method: 'S256',
    });
    expect(u.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.authorize_url).toContain('scope=transactions_r%20transactions_w');
    const row = await t.db.prisma.shopAuthorization.findUniqueOrThrow({ where: { id: a.id } });
    for (const secret of [et.sharedSecret, u.searchParams.get('state')!]) {
      expect(row.secrets).not.toContain(secret);
      expect(row.state_hash).not.toContain(secret);
    }
    const view = await status(a.id);
    expect(view).toMatchObject({ id: a.id, status: 'PENDING', name: 'Etsy consented' });
    expect(view).not.toHaveProperty('authorize_url');
    expect(JSON.stringify(view)).not.toContain(et.sharedSecret);
  });

  it('connects on the callback: the code exchanged with the verifier, the shop made with its refresh token sealed', async () => {
    const a = await start('Etsy happy');
    const consent = et.consent(a.authorize_url);
    const before = callsTo(TOKEN);
    const res = await callback({ code: consent.code, state: consent.state });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('Etsy happy is connected to fos');
    // The double answered the exchange only because the verifier matched the challenge and the redirect_uri.
    const exchange = et.calls.filter((c) => c.path === TOKEN).slice(before)[0]!;
    expect(exchange.body).toMatchObject({ grant_type: 'authorization_code', client_id: et.keystring, redirect_uri: REDIRECT });
    expect(exchange.headers['x-api-key']).toBe(`${et.keystring}:${et.sharedSecret}`);
    expect(callsTo(TOKEN) - before).toBe(1); // the check used the token just granted: no refresh spent

    const view = await status(a.id);
    expect(view).toMatchObject({ status: 'CONNECTED', message: null });
    // Used: the keys and the verifier are forgotten.
    expect((await t.db.prisma.shopAuthorization.findUniqueOrThrow({ where: { id: a.id } })).secrets).toBe('');
    const shop = (await t.call('GET', `/v1/ops/shops/${view.shop_id}`)).json();
    expect(shop).toMatchObject({ name: 'Etsy happy', shop_type: 'ETSY', connected: true, active: true, merchant_team_id: merchantTeamId });
    const row = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: view.shop_id } });
    const creds = openConnection(row).credentials as EtsyCredentials;
    expect(creds).toMatchObject({ client_id: et.keystring, refresh_token: et.refreshToken, etsy_shop_id: String(et.shopId) });
    for (const secret of [et.sharedSecret, et.refreshToken]) expect(row.credentials).not.toContain(secret);

    // Replayed: refused with a page, nothing exchanged, no second shop.
    const again = await callback({ code: consent.code, state: consent.state });
    expect(again.statusCode).toBe(409);
    expect(again.body).toMatch(/used already: shop .* is connected/);
    expect(callsTo(TOKEN) - before).toBe(1);
    expect(await t.db.prisma.shop.count({ where: { name: 'Etsy happy' } })).toBe(1);
  });

  it('two callbacks of one link at once make one shop: one claims it, the other is refused without an exchange', async () => {
    const a = await start('Etsy raced');
    const consent = et.consent(a.authorize_url);
    const before = callsTo(TOKEN);
    const both = await Promise.all([0, 1].map(() => callback({ code: consent.code, state: consent.state })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(callsTo(TOKEN) - before).toBe(1);
    expect(await t.db.prisma.shop.count({ where: { name: 'Etsy raced' } })).toBe(1);
    expect(await status(a.id)).toMatchObject({ status: 'CONNECTED' });
  });

  it("Etsy's ?error= ends the authorization FAILED with Etsy's description; an unknown or expired state exchanges nothing", async () => {
    const a = await start('Etsy declined');
    const { state } = et.consent(a.authorize_url);
    const before = callsTo(TOKEN);
    const declined = await callback({ state, error: 'access_denied', error_description: 'The user denied the request' });
    expect(declined.statusCode).toBe(200);
    expect(declined.body).toContain('Etsy declined was not connected');
    expect(await status(a.id)).toMatchObject({ status: 'FAILED', message: 'Etsy refused: The user denied the request' });

    const unknown = await callback({ code: 'code-x', state: 'not-a-state-fos-gave' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('not one fos gave out');
    const missing = await callback({ code: 'code-x' });
    expect(missing.statusCode).toBe(400);

    const late = await start('Etsy late');
    const lateConsent = et.consent(late.authorize_url);
    await t.db.prisma.shopAuthorization.update({ where: { id: late.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    const expired = await callback({ code: lateConsent.code, state: lateConsent.state });
    expect(expired.statusCode).toBe(422);
    expect(expired.body).toContain('expired before the seller consented');
    expect(await status(late.id)).toMatchObject({ status: 'EXPIRED' });
    // A day past its expiry it is deleted when another authorization is made.
    await t.db.prisma.shopAuthorization.update({ where: { id: late.id }, data: { expires_at: new Date(Date.now() - 25 * 3600_000) } });
    await start('Etsy later');
    expect((await t.call('GET', `${BASE}/${late.id}`)).statusCode).toBe(404);
    expect(callsTo(TOKEN) - before).toBe(0);
    expect(await t.db.prisma.shop.count({ where: { name: { in: ['Etsy declined', 'Etsy late'] } } })).toBe(0);
  });

  it('a code Etsy refuses, or a token of another shop than etsy_shop_id, ends FAILED and makes no shop', async () => {
    const a = await start('Etsy bad code');
    const { state } = et.consent(a.authorize_url);
    const res = await callback({ code: 'a-code-etsy-never-gave', state });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Etsy refused the authorization code (invalid_grant: Invalid authorization code)');
    expect(await status(a.id)).toMatchObject({ status: 'FAILED' });

    const b = await start('Etsy other shop', { etsy_shop_id: '999' });
    const consent = et.consent(b.authorize_url);
    const other = await callback({ code: consent.code, state: consent.state });
    expect(other.statusCode).toBe(400);
    expect((await status(b.id)).message).toMatch(/the refresh token is Etsy shop 55001's, not shop 999's/);
    expect(await t.db.prisma.shop.count({ where: { name: { in: ['Etsy bad code', 'Etsy other shop'] } } })).toBe(0);
  });

  it('refuses unknown fields, a used shop name, and another team’s authorization; an address sending unknown states waits', async () => {
    const extra = await t.call('POST', BASE, {
      body: { name: 'x', client_id: et.keystring, client_secret: 's', refresh_token: 'no' },
    });
    expect(extra.statusCode).toBe(400);
    const used = await t.call('POST', BASE, {
      body: { name: 'Etsy happy', merchant_team_id: merchantTeamId, client_id: et.keystring, client_secret: 's', api_base_url: et.url },
    });
    expect(used.statusCode).toBe(409);
    const a = await start('Etsy hidden');
    const other = await t.merchant();
    expect((await t.call('GET', `/v1/merchant/shops/etsy/authorizations/${a.id}`, { token: other.token })).statusCode).toBe(404);
    const noPermission = await t.key({ permissions: ['READ_ORDERS'] });
    expect((await t.call('GET', `${BASE}/${a.id}`, { token: noPermission.token })).statusCode).toBe(403);

    // 20 unknown states a minute: within two minutes' worth the address is refused (a minute may turn meanwhile).
    const seen: number[] = [];
    for (let i = 0; i < 45 && !seen.includes(429); i++) seen.push((await callback({ code: 'c', state: `guess-${i}` })).statusCode);
    expect(seen.at(-1)).toBe(429);
    expect(new Set(seen.slice(0, -1))).toEqual(new Set([401]));
  });

  it('writes no secret in any log line nor audit record', async () => {
    const audit = JSON.stringify(await t.db.prisma.auditEvent.findMany());
    expect(audit).toContain('authorization');
    expect(audit).not.toContain(et.sharedSecret);
    const log = lines.join('\n');
    expect(log).toContain('/v1/channels/etsy/callback');
    for (const secret of [et.sharedSecret, et.refreshToken, ...et.tokens]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/[?&](code|state)=(?!\[REDACTED\])/);
  });
});
