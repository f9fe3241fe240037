import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { bigcommerceDouble, type BigCommerceDouble } from '../helpers/bigcommerce-double.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';

// `fos shops connect bigcommerce` on a terminal (the guide, then prompts for what the flags left
// out, the token hidden) and with flags and stdin; `fos shops test` against the BigCommerce double.

let t: TestApp;
let env: Record<string, string>;
let bc: BigCommerceDouble;
let merchantId: string;

beforeAll(async () => {
  bc = await bigcommerceDouble({ token: 'bc_cli' });
  ({ t, env } = await cliServer({ allowPrivateWebhooks: true }));
  merchantId = (await t.merchant()).teamId;
});
afterAll(async () => {
  await bc?.close();
  await t?.close();
});

describe('fos shops connect bigcommerce', () => {
  it('guides on a terminal and asks the store hash and, hidden, the token', async () => {
    const asked: string[] = [];
    const r = await runCli(
      ['shops', 'connect', 'bigcommerce', '--name', 'BC prompt', '--merchant', merchantId, '--api-base-url', bc.url, '--json'],
      {
        env,
        tty: true,
        prompts: {
          input: async (o) => (asked.push(`input ${o.message}`), 'abc123'),
          password: async (o) => (asked.push(`password ${o.message}`), 'bc_cli'),
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['input store hash:', 'password access token:']);
    expect(r.stderr).toContain('Store-level API accounts');
    const shop = JSON.parse(r.stdout);
    expect(shop).toMatchObject({ shop_type: 'BIGCOMMERCE', connected: true, connection: { shop_domain: 'abc123' } });
    expect(r.stdout).not.toContain('bc_cli');
    expect(bc.hooks.at(-1)).toMatchObject({
      scope: 'store/order/*',
      destination: expect.stringContaining(`/v1/channels/${shop.id}/webhooks`),
    });
  });

  it('takes flags and the token on stdin; fos shops test checks it against BigCommerce', async () => {
    const stdin = JSON.stringify({ connection: { access_token: 'bc_cli' } });
    const r = await runCli(
      [
        'shops',
        'connect',
        'bigcommerce',
        '--name',
        'BC flags',
        '--merchant',
        merchantId,
        '--store-hash',
        'abc123',
        '--api-base-url',
        bc.url,
        '--data',
        '-',
        '--json',
      ],
      { env, stdin },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('fos registered the store/order/* webhook on BigCommerce itself');
    expect(r.stderr).not.toContain('webhook address for the platform');
    const id = JSON.parse(r.stdout).id;
    const ok = await runCli(['shops', 'test', id, '--json'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, platform_shop_name: 'Double Store', error: null });
    bc.token = 'revoked';
    const bad = await runCli(['shops', 'test', id, '--json'], { env });
    expect(JSON.parse(bad.stdout)).toMatchObject({
      ok: false,
      error: expect.stringContaining('BigCommerce refused the API account (HTTP 401)'),
    });
    // The answer is printed, and a script sees the refusal: exit 1 with the reason.
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('the check failed: BigCommerce refused the API account (HTTP 401)');

    // Without a terminal, what the flags and --data left out is named as flags; nothing is sent.
    const calls = bc.calls.length;
    const bare = await runCli(['shops', 'connect', 'bigcommerce', '--name', 'BC bare', '--merchant', merchantId, '--json'], { env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('BigCommerce needs --store-hash, --access-token (or connection.access_token in --data -)');
    const half = await runCli(
      ['shops', 'connect', 'bigcommerce', '--name', 'BC half', '--merchant', merchantId, '--store-hash', 'abc123', '--data', '-'],
      { env, stdin: '{"connection":{}}' },
    );
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('BigCommerce needs --access-token (or connection.access_token in --data -)');
    expect(bc.calls).toHaveLength(calls);
  });
});
