import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { etsyDouble, type EtsyDouble } from '../helpers/etsy-double.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ROOT, ensureCliBundle, spawnFos, type Spawned } from './helpers/spawn.js';

// `fos shops connect etsy --oauth [--wait]`, the built binary against a test server and the Etsy
// double: the consent page's link on stdout and the redirect URI to register on stderr; with
// --wait the CLI follows the authorization while the seller consents (the double's consent, then
// Etsy's redirect to the server's callback) and prints the shop; a refusal or an expiry exits 1.

let t: TestApp;
let env: Record<string, string>;
let et: EtsyDouble;
let merchantId: string;
const REDIRECT = 'https://fos.example.com/v1/channels/etsy/callback';
const CONNECT = 'https://www.etsy.example';

beforeAll(async () => {
  et = await etsyDouble();
  ({ t, env } = await cliServer({ allowPrivateWebhooks: true, publicUrl: 'https://fos.example.com' }));
  merchantId = (await t.merchant()).teamId;
  await ensureCliBundle();
}, 300_000);
afterAll(async () => {
  await et?.close();
  await t?.close();
});

const args = (name: string, ...more: string[]) => [
  'shops',
  'connect',
  'etsy',
  '--oauth',
  '--name',
  name,
  '--merchant',
  merchantId,
  '--client-id',
  et.keystring,
  '--api-base-url',
  et.url,
  '--connect-base-url',
  CONNECT,
  '--data',
  '-',
  ...more,
];
const secretsIn = () => JSON.stringify({ connection: { client_secret: et.sharedSecret } });

/** Etsy's redirect of the seller's browser to the server's callback. */
const redirect = (query: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/v1/channels/etsy/callback?${new URLSearchParams(query)}` });

/** The binary with --wait: `seller` runs once the consent link is on stderr (the seller's side). */
function waitingFos(argv: string[], seller: (url: string) => Promise<void>): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/fos.js'), ...argv], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let acted = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      const url = stderr.match(/^(https:\/\/www\.etsy\.example\/oauth\/connect\?\S+)$/m)?.[1];
      if (url && !acted) {
        acted = true;
        seller(url).catch((err: unknown) => {
          child.kill();
          reject(err as Error);
        });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(secretsIn());
  });
}

describe('fos shops connect etsy --oauth', () => {
  it('prints the consent link on stdout and the redirect URI to register on stderr; the seller’s consent connects the shop', async () => {
    const r = await spawnFos(args('Etsy link'), env, secretsIn());
    expect(r.code, r.stderr).toBe(0);
    const url = r.stdout.trim();
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(url.startsWith(`${CONNECT}/oauth/connect?`)).toBe(true);
    expect(new URL(url).searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(r.stderr).toContain(`register ${REDIRECT} as a callback URL of the Etsy app`);
    expect(r.stdout + r.stderr).not.toContain(et.sharedSecret);

    const consent = et.consent(url);
    const page = await redirect({ code: consent.code, state: consent.state });
    expect(page.statusCode, page.body).toBe(200);
    const shops = (await t.call('GET', '/v1/ops/shops', { query: { shop_type: 'ETSY' } })).json().data;
    expect(shops.map((s: { name: string }) => s.name)).toContain('Etsy link');

    // --json: the whole authorization instead of the link alone (still no secret).
    const json = await spawnFos([...args('Etsy json'), '--json'], env, secretsIn());
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'PENDING', redirect_uri: REDIRECT, name: 'Etsy json' });
    expect(json.stdout).not.toContain(et.sharedSecret);
  });

  it('--wait follows the authorization while the seller consents, then prints the shop', async () => {
    const r = await waitingFos([...args('Etsy waited', '--wait', '--poll-interval', '0.2'), '--json'], async (url) => {
      const consent = et.consent(url);
      const page = await redirect({ code: consent.code, state: consent.state });
      if (page.statusCode !== 200) throw new Error(page.body);
    });
    expect(r.code, r.stderr).toBe(0);
    const shop = JSON.parse(r.stdout);
    expect(shop).toMatchObject({ name: 'Etsy waited', shop_type: 'ETSY', connected: true, merchant_team_id: merchantId });
    expect(r.stderr).toContain(`connected: shop ${shop.id}`);
    expect(r.stdout + r.stderr).not.toContain(et.sharedSecret);
    expect(r.stdout + r.stderr).not.toContain(et.refreshToken);
  });

  it('--wait exits 1 with the reason when the seller declines, and when the authorization expires', async () => {
    const declined = await waitingFos(args('Etsy declined', '--wait', '--poll-interval', '0.2'), async (url) => {
      const state = new URL(url).searchParams.get('state')!;
      await redirect({ state, error: 'access_denied', error_description: 'The user denied the request' });
    });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain('error: the shop was not connected: Etsy refused: The user denied the request');
    expect(declined.stdout).toBe('');

    const expired = await waitingFos(args('Etsy expired', '--wait', '--poll-interval', '0.2'), async () => {
      // The seller never comes: the authorization's time is made to run out.
      await t.db.prisma.shopAuthorization.updateMany({
        where: { name: 'Etsy expired' },
        data: { expires_at: new Date(Date.now() - 1000) },
      });
    });
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain('error: the seller did not consent in time');
  });

  it('refuses the consent options without --oauth and a refresh token with it (exit 2); on a terminal asks only the keys', async () => {
    const wait = await spawnFos(['shops', 'connect', 'etsy', '--name', 'x', '--wait'], env);
    expect(wait.code).toBe(2);
    expect(wait.stderr).toContain('--wait goes with --oauth');
    const token = await spawnFos([...args('x'), '--refresh-token', 'r'], env, secretsIn());
    expect(token.code).toBe(2);
    expect(token.stderr).toContain('leave out --refresh-token');

    const asked: string[] = [];
    const r = await runCli(
      ['shops', 'connect', 'etsy', '--oauth', '--name', 'Etsy asked', '--merchant', merchantId, '--api-base-url', et.url],
      {
        env,
        tty: true,
        prompts: {
          input: async (o) => (asked.push(`input ${o.message}`), et.keystring),
          password: async (o) => (asked.push(`password ${o.message}`), et.sharedSecret),
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['input client id:', 'password client secret:']);
    expect(r.stderr).toContain('With --oauth fos asks the seller');
    expect(r.stdout.trim()).toMatch(/^https:\/\/www\.etsy\.com\/oauth\/connect\?/);
  });
});
