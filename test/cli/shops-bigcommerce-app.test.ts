import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { packageRoot } from '../../src/db/migrate.js';
import { cliServer } from './helpers/server.js';

// `fos shops connect bigcommerce --app`, the built CLI spawned as a person runs it: the store is
// named for the merchant team on the server's BigCommerce app (POST …/shops/bigcommerce/app), and
// fos says what the merchant does next and which callback URLs the app has. No app configured on
// the server: a 422 that names the settings. The app's secret is never printed.

const SECRET = 'bc-cli-app-secret';
let t: TestApp;
let bare: TestApp;
let env: Record<string, string>;
let bareEnv: Record<string, string>;
let merchantId: string;
const homes: string[] = [];

beforeAll(async () => {
  const app = {
    client_id: 'bc-cli-app',
    client_secret: SECRET,
    login_url: 'https://login.bigcommerce.com',
    api_url: 'https://api.bigcommerce.com/stores',
  };
  ({ t, env } = await cliServer({ bigcommerceApp: app, publicUrl: 'https://fos.example.com' }));
  ({ t: bare, env: bareEnv } = await cliServer({ bigcommerceApp: null }));
  merchantId = (await t.merchant()).teamId;
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function fos(args: string[], serverEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'fos-bc-app-'));
  homes.push(home);
  const child = spawn(process.execPath, [`${packageRoot()}/bin/fos.js`, ...args], {
    env: { PATH: process.env.PATH, HOME: home, FOS_CONFIG_DIR: home, NO_COLOR: '1', ...serverEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('fos shops connect bigcommerce --app', () => {
  it('names the store for the app and prints what the merchant does and the callback URLs', async () => {
    const r = await fos(
      ['shops', 'connect', 'bigcommerce', '--app', '--name', 'BC CLI App', '--store-hash', 'cli123', '--merchant', merchantId, '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      store_hash: 'cli123',
      app_install: { status: 'AWAITING' },
      auth_callback_url: 'https://fos.example.com/v1/channels/bigcommerce/auth',
    });
    expect(r.stderr).toContain("store cli123 awaits the app's install");
    expect(r.stderr).toContain('https://fos.example.com/v1/channels/bigcommerce/auth');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const shop = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: out.shop_id } });
    expect(shop).toMatchObject({ shop_type: 'BIGCOMMERCE', shop_domain: 'cli123', active: false });
  });

  it('needs --store-hash, and says when the server has no app', async () => {
    const noHash = await fos(['shops', 'connect', 'bigcommerce', '--app', '--name', 'X', '--merchant', merchantId], env);
    expect(noHash.code).not.toBe(0);
    expect(noHash.stderr).toContain('--app needs --store-hash');
    const bareMerchant = (await bare.merchant()).teamId;
    const none = await fos(
      ['shops', 'connect', 'bigcommerce', '--app', '--name', 'X', '--store-hash', 'abc', '--merchant', bareMerchant],
      bareEnv,
    );
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('FOS_BIGCOMMERCE_CLIENT_ID');
  });
});
