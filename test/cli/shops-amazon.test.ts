import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { amazonDouble, type AmazonDouble } from '../helpers/amazon-double.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

// `fos shops connect amazon` on a terminal (the guide, then prompts for what the flags left out,
// the secrets hidden) and, as people run it, the spawned binary with flags and the secrets on
// stdin; `fos shops test` checks the credentials with one real call against the SP-API double.

let t: TestApp;
let env: Record<string, string>;
let amz: AmazonDouble;
let merchantId: string;

beforeAll(async () => {
  amz = await amazonDouble();
  ({ t, env } = await cliServer({ allowPrivateWebhooks: true }));
  merchantId = (await t.merchant()).teamId;
  await ensureCliBundle();
}, 300_000);
afterAll(async () => {
  await amz?.close();
  await t?.close();
});

const base = () => ['--api-base-url', amz.url, '--token-url', amz.tokenUrl];

describe('fos shops connect amazon', () => {
  it('guides on a terminal and asks what the flags left out, the secrets hidden', async () => {
    const asked: string[] = [];
    const answers: Record<string, string> = {
      'marketplace id:': amz.marketplaceId,
      'seller id:': amz.sellerId,
      'client id:': 'amzn1.application-oa2-client.fos',
      'client secret:': 'lwa-secret',
      'refresh token:': amz.refreshToken,
    };
    const r = await runCli(['shops', 'connect', 'amazon', '--name', 'Amazon prompt', '--merchant', merchantId, ...base(), '--json'], {
      env,
      tty: true,
      prompts: {
        input: async (o) => (asked.push(`input ${o.message}`), answers[o.message]!),
        password: async (o) => (asked.push(`password ${o.message}`), answers[o.message]!),
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual([
      'input marketplace id:',
      'input seller id:',
      'input client id:',
      'password client secret:',
      'password refresh token:',
    ]);
    expect(r.stderr).toContain('Direct-to-Consumer Shipping');
    expect(r.stderr).toContain('Amazon sends no webhooks');
    expect(r.stderr).not.toContain('webhook address');
    const shop = JSON.parse(r.stdout);
    expect(shop).toMatchObject({ shop_type: 'AMAZON', connected: true, connection: { shop_domain: 'ATVPDKIKX0DER' } });
    expect(r.stdout).not.toMatch(/lwa-secret|Atzr/);
  });

  it('the spawned binary takes flags and the secrets on stdin; fos shops test checks them against Amazon', async () => {
    const stdin = JSON.stringify({ connection: { client_secret: 'lwa-secret', refresh_token: amz.refreshToken } });
    const args = ['shops', 'connect', 'amazon', '--name', 'Amazon flags', '--merchant', merchantId, '--region', 'NA'];
    args.push('--marketplace-id', amz.marketplaceId, '--seller-id', amz.sellerId, '--client-id', 'amzn1.application-oa2-client.fos');
    const r = await spawnFos([...args, ...base(), '--data', '-', '--json'], env, stdin);
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id;
    const ok = await spawnFos(['shops', 'test', id, '--json'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, platform_shop_name: 'Double Seller', error: null });
    const checks = amz.calls.filter((c) => c.path === '/sellers/v1/marketplaceParticipations');
    expect(checks.at(-1)!.headers['x-amz-access-token']).toMatch(/^Atza\|/);

    // A region fos does not know: refused by the contract, a one-line error and exit 2 or 4.
    const bad = await spawnFos([...args.map((a) => (a === 'NA' ? 'XX' : a)), ...base(), '--data', '-', '--json'], env, stdin);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/region/);

    amz.refreshToken = 'Atzr|revoked';
    amz.expireTokens();
    const revoked = await spawnFos(['shops', 'test', id, '--json'], env);
    expect(JSON.parse(revoked.stdout)).toMatchObject({
      ok: false,
      error: expect.stringContaining('Login with Amazon refused the token request'),
    });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain('the check failed: Login with Amazon refused the token request');
  }, 120_000);
});
