import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { ebayDouble, type EbayDouble } from '../helpers/ebay-double.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

// `fos shops connect ebay` on a terminal (the guide, then prompts for what the flags left out, the
// secrets hidden), and the real binary with flags and the secrets on stdin; `fos shops test`
// checks the connection against the eBay double with one real call (after a token refresh).

let t: TestApp;
let env: Record<string, string>;
let eb: EbayDouble;
let merchantId: string;

beforeAll(async () => {
  eb = await ebayDouble();
  ({ t, env } = await cliServer({ allowPrivateWebhooks: true }));
  merchantId = (await t.merchant()).teamId;
  await ensureCliBundle();
}, 300_000);
afterAll(async () => {
  await eb?.close();
  await t?.close();
});

describe('fos shops connect ebay', () => {
  it('guides on a terminal and asks the client id and, hidden, the client secret and refresh token', async () => {
    const asked: string[] = [];
    const r = await runCli(
      ['shops', 'connect', 'ebay', '--name', 'eBay prompt', '--merchant', merchantId, '--api-base-url', eb.url, '--json'],
      {
        env,
        tty: true,
        prompts: {
          input: async (o) => (asked.push(`input ${o.message}`), eb.clientId),
          password: async (o) => (asked.push(`password ${o.message}`), o.message.startsWith('client') ? eb.clientSecret : eb.refreshToken),
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['input client id:', 'password client secret:', 'password refresh token:']);
    expect(r.stderr).toContain('Application Keys');
    expect(r.stderr).toContain('webhooks: orders come by sync');
    const shop = JSON.parse(r.stdout);
    expect(shop).toMatchObject({ shop_type: 'EBAY', connected: true, connection: { api_base_url: eb.url } });
    expect(r.stdout).not.toContain(eb.refreshToken);
    expect(r.stdout).not.toContain(eb.clientSecret);
  });

  it('the binary takes flags and the secrets on stdin; fos shops test checks them against eBay', async () => {
    const stdin = JSON.stringify({ connection: { client_secret: eb.clientSecret, refresh_token: eb.refreshToken } });
    const args = ['shops', 'connect', 'ebay', '--name', 'eBay flags', '--merchant', merchantId, '--client-id', eb.clientId];
    const r = await spawnFos([...args, '--api-base-url', eb.url, '--data', '-', '--json'], env, stdin);
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id;
    const n = eb.calls.length;
    const ok = await spawnFos(['shops', 'test', id, '--json'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, platform_shop_name: `eBay (${new URL(eb.url).host})`, error: null });
    // One real call with the token cached at connect.
    expect(eb.calls.slice(n).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /sell/fulfillment/v1/order']);

    const good = eb.refreshToken;
    eb.refreshToken = 'revoked';
    eb.expireTokens();
    const bad = await spawnFos(['shops', 'test', id, '--json'], env);
    eb.refreshToken = good;
    expect(JSON.parse(bad.stdout)).toMatchObject({
      ok: false,
      error: expect.stringContaining('eBay refused the token refresh (invalid_grant'),
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('the check failed: eBay refused the token refresh');

    // A missing flag without a terminal: refused before anything is sent.
    const missing = await spawnFos(
      ['shops', 'connect', 'ebay', '--name', 'eBay half', '--merchant', merchantId, '--client-id', 'x', '--json'],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'eBay needs --client-secret (or connection.client_secret in --data -), --refresh-token (or connection.refresh_token in --data -)',
    );
  });
});
