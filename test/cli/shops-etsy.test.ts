import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { etsyDouble, type EtsyDouble } from '../helpers/etsy-double.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

// `fos shops connect etsy` on a terminal (the guide, then prompts for what the flags left out, the
// secrets hidden), and the real binary with flags and the secrets on stdin; `fos shops test`
// checks the connection against the Etsy double (getMe and getShop with the cached token).

let t: TestApp;
let env: Record<string, string>;
let et: EtsyDouble;
let merchantId: string;

beforeAll(async () => {
  et = await etsyDouble();
  ({ t, env } = await cliServer({ allowPrivateWebhooks: true }));
  merchantId = (await t.merchant()).teamId;
  await ensureCliBundle();
}, 300_000);
afterAll(async () => {
  await et?.close();
  await t?.close();
});

describe('fos shops connect etsy', () => {
  it('guides on a terminal and asks the keystring and, hidden, the shared secret and refresh token', async () => {
    const asked: string[] = [];
    const r = await runCli(
      ['shops', 'connect', 'etsy', '--name', 'Etsy prompt', '--merchant', merchantId, '--api-base-url', et.url, '--json'],
      {
        env,
        tty: true,
        prompts: {
          input: async (o) => (asked.push(`input ${o.message}`), et.keystring),
          password: async (o) => (asked.push(`password ${o.message}`), o.message.startsWith('client') ? et.sharedSecret : et.refreshToken),
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['input client id:', 'password client secret:', 'password refresh token:']);
    expect(r.stderr).toContain('etsy.com/developers/your-apps');
    expect(r.stderr).toContain('webhooks: receipts come by sync');
    const shop = JSON.parse(r.stdout);
    expect(shop).toMatchObject({ shop_type: 'ETSY', connected: true, connection: { api_base_url: et.url } });
    expect(r.stdout).not.toContain(et.sharedSecret);
    expect(r.stdout).not.toContain('refresh-');
  });

  it('the binary takes flags and the secrets on stdin; fos shops test checks them against Etsy', async () => {
    const stdin = JSON.stringify({ connection: { client_secret: et.sharedSecret, refresh_token: et.refreshToken } });
    const args = ['shops', 'connect', 'etsy', '--name', 'Etsy flags', '--merchant', merchantId, '--client-id', et.keystring];
    const r = await spawnFos([...args, '--etsy-shop-id', String(et.shopId), '--api-base-url', et.url, '--data', '-', '--json'], env, stdin);
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id;
    const n = et.calls.length;
    const ok = await spawnFos(['shops', 'test', id, '--json'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, platform_shop_name: 'Etsy shop FosCrafts', error: null });
    // With the token cached at connect: getMe and getShop, keyed keystring:shared_secret.
    const sent = et.calls.slice(n);
    expect(sent.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v3/application/users/me', `GET /v3/application/shops/${et.shopId}`]);
    expect(sent[0]!.headers['x-api-key']).toBe(`${et.keystring}:${et.sharedSecret}`);

    et.revokeRefreshTokens();
    et.expireTokens();
    const bad = await spawnFos(['shops', 'test', id, '--json'], env);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      ok: false,
      error: expect.stringContaining('Etsy refused the token refresh (invalid_grant'),
    });

    // A missing flag without a terminal: refused before anything is sent.
    const missing = await spawnFos(
      ['shops', 'connect', 'etsy', '--name', 'Etsy half', '--merchant', merchantId, '--client-id', 'x', '--json'],
      env,
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/client_secret|client-secret/);
  });
});
