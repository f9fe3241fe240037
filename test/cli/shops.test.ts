import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { SHOPIFY_SECRET, shopifyDelivery } from '../helpers/channels.js';
import {
  shopifyDouble,
  shopifyOrderNode,
  shopifyWebhookOrder,
  wooDouble,
  type ShopifyDouble,
  type WooDouble,
} from '../helpers/platform-doubles.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';

// `fos shops …` over HTTP against a real server and the Shopify double: connect with the
// credentials on stdin (never on the command line), list, get, sync, deliveries, replay, disconnect.

let t: TestApp;
let env: Record<string, string>;
let shopify: ShopifyDouble;
let woo: WooDouble;
let merchantId: string;

beforeAll(async () => {
  shopify = await shopifyDouble({ token: 'shpat_cli', clientId: 'cli-id', clientSecret: 'cli-secret' });
  ({ t, env } = await cliServer({
    allowPrivateWebhooks: true,
    shopifyApp: {
      client_id: 'cli-id',
      client_secret: 'cli-secret',
      scopes: 'read_orders',
      authorize_url: 'https://{shop}/admin/oauth/authorize',
      api_base_url: shopify.url,
    },
  }));
  merchantId = (await t.merchant()).teamId;
  woo = await wooDouble({ key: 'ck_cli', secret: 'cs_cli' });
  shopify.orders.push(shopifyOrderNode(1201, [{ sku: 'NOPE', quantity: 1 }]));
});
afterAll(async () => {
  await shopify?.close();
  await woo?.close();
  await t?.close();
});

describe('fos shops', () => {
  let shopId: string;

  it('connects a Shopify shop with secrets from stdin and prints the webhook address', async () => {
    const stdin = JSON.stringify({ connection: { access_token: 'shpat_cli', webhook_secret: SHOPIFY_SECRET } });
    const r = await runCli(
      [
        'shops',
        'connect',
        'shopify',
        '--name',
        'CLI Shop',
        '--merchant',
        merchantId,
        '--shop-domain',
        'cli.myshopify.com',
        '--api-base-url',
        shopify.url,
        '--data',
        '-',
        '--json',
      ],
      { env, stdin },
    );
    expect(r.code, r.stderr).toBe(0);
    const shop = JSON.parse(r.stdout);
    shopId = shop.id;
    expect(shop).toMatchObject({ name: 'CLI Shop', shop_type: 'SHOPIFY', connected: true });
    expect(r.stdout).not.toContain('shpat_cli');
    expect(r.stderr).toContain(`webhook address for the platform: ${env.FOS_BASE_URL}/channels/${shop.id}/webhooks`);
    expect(shopify.calls.at(-1)!.headers['x-shopify-access-token']).toBe('shpat_cli');
  });

  it('connects a Dev Dashboard app by its client credentials, and prints an OAuth install link with --oauth', async () => {
    const stdin = JSON.stringify({ connection: { client_id: 'cli-id', client_secret: 'cli-secret' } });
    const base = ['shops', 'connect', 'shopify', '--merchant', merchantId, '--shop-domain', 'cc.myshopify.com'];
    const r = await runCli([...base, '--name', 'CLI CC', '--api-base-url', shopify.url, '--data', '-', '--json'], { env, stdin });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('cli-secret');
    expect(shopify.grants.at(-1)).toEqual({ grant_type: 'client_credentials', client_id: 'cli-id' });
    const fs = await runCli(['shops', 'fulfillment-service', JSON.parse(r.stdout).id, '--json'], { env });
    expect(fs.code, fs.stderr).toBe(0);
    expect(JSON.parse(fs.stdout).settings.fulfillment_service).toMatchObject({ location_id: 'gid://shopify/Location/900' });
    const o = await runCli([...base, '--name', 'CLI OAuth', '--oauth'], { env });
    expect(o.code, o.stderr).toBe(0);
    const link = /send this link to the merchant to install the app: (\S+)/.exec(o.stderr)?.[1];
    expect(link).toMatch(/\/v1\/channels\/shopify\/install\?state=/);
    const redirect = await fetch(link!, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/^https:\/\/cc\.myshopify\.com\/admin\/oauth\/authorize\?client_id=cli-id&/);
  });

  it('refuses a bad token with a one-line message and a usage exit code', async () => {
    const stdin = JSON.stringify({ connection: { access_token: 'shpat_wrong', webhook_secret: 'x' } });
    const r = await runCli(
      [
        'shops',
        'connect',
        'shopify',
        '--name',
        'Bad',
        '--merchant',
        merchantId,
        '--shop-domain',
        'cli.myshopify.com',
        '--api-base-url',
        shopify.url,
        '--data',
        '-',
      ],
      { env, stdin },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Shopify refused the access token \(HTTP 401\)/);
  });

  it('lists, gets, syncs, shows deliveries, replays and disconnects', async () => {
    const list = await runCli(['shops', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout).map((s: { id: string }) => s.id)).toContain(shopId);
    const sync = await runCli(['shops', 'sync', shopId, '--json'], { env });
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout).orders.created).toBe(1);
    const get = await runCli(['shops', 'get', shopId, '--json'], { env });
    expect(JSON.parse(get.stdout).health.last_sync_at).not.toBeNull();

    const delivered = await shopifyDelivery(t, shopId, 'orders/create', { not: 'an order' });
    const deliveries = await runCli(['shops', 'deliveries', shopId, '--status', 'FAILED', '--json'], { env });
    const rows = JSON.parse(deliveries.stdout);
    expect(rows.map((d: { id: string }) => d.id)).toContain(delivered.json().delivery_id);
    const replay = await runCli(['shops', 'replay', shopId, delivered.json().delivery_id, '--json'], { env });
    expect(JSON.parse(replay.stdout)).toMatchObject({ status: 'FAILED', attempts: 2 });
    const ok = await shopifyDelivery(t, shopId, 'orders/create', shopifyWebhookOrder(1202, [{ sku: 'NOPE', quantity: 1 }]));
    expect(ok.json().status).toBe('PROCESSED');

    const off = await runCli(['shops', 'disconnect', shopId, '--yes', '--json'], { env });
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({ deleted: false, disconnected: true });
    const gone = await shopifyDelivery(t, shopId, 'orders/create', shopifyWebhookOrder(1203, [{ sku: 'NOPE', quantity: 1 }]));
    expect(gone.statusCode).toBe(401);
  });

  it('asks for what the flags left out on a terminal, secrets without echo', async () => {
    const answers: Record<string, string> = {
      'consumer key:': 'ck_cli',
      'consumer secret:': 'cs_cli',
      'webhook secret:': 'wc_cli_secret',
    };
    const asked: string[] = [];
    const r = await runCli(
      [
        ...['shops', 'connect', 'woocommerce', '--name', 'Prompted Woo', '--merchant', merchantId],
        ...['--store-url', 'https://woo.example', '--api-base-url', woo.url, '--json'],
      ],
      {
        env,
        tty: true,
        prompts: {
          password: async (o) => (asked.push(o.message), answers[o.message]!),
          input: async (o) => {
            throw new Error(`unexpected input prompt ${o.message}`);
          },
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['consumer key:', 'consumer secret:', 'webhook secret:']);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Prompted Woo', shop_type: 'WOOCOMMERCE', connected: true });
    expect(r.stdout + r.stderr).not.toMatch(/cs_cli|wc_cli_secret/);
    expect(woo.calls.at(-1)!.query).toMatchObject({ oauth_consumer_key: 'ck_cli' });
  });
});
