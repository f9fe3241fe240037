import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { shopifyDouble, shopifyWebhookOrder, sign } from '../helpers/platform-doubles.js';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';

// A Shopify delivery stored while fos serve is killed outright (SIGKILL) before it was taken in:
// the test hook FOS_TEST_KILL_AFTER_DELIVERY_STORED places the kill right after the store commits
// (deterministic, no timing). The restarted server's channel worker takes the RECEIVED delivery
// in (FOS_DELIVERY_STALE_MS=0: no live request can hold it after a restart of the only server),
// and the order exists once — also after Shopify's retry of the unanswered delivery.

const box = useServeSandbox();
const shopify = await shopifyDouble({ token: 'shpat_good' });
afterAll(() => shopify.close());

describe('a shop delivery interrupted by kill -9', () => {
  it('is taken in by the worker after the restart: one order', async () => {
    const db = path.join(box.dir, 'deliveries.db');
    const env = { ...box.env, FOS_SECRET_KEY: randomBytes(32).toString('hex'), FOS_DELIVERY_STALE_MS: '0' };
    const args = ['--db', db, '--port', '0', '--demo', '--allow-private-network'];
    const first = box.track(spawnServe(args, { ...env, FOS_TEST_KILL_AFTER_DELIVERY_STORED: '1' }, box.dir));
    let server = await first.started;
    const token = /API key \(shown once\): (\S+)/.exec(server.stderr())![1]!;
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${server.url}${p}`, {
        method,
        headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const shop = await api('POST', '/ops/shops', {
      name: 'Crash shop',
      shop_type: 'SHOPIFY',
      connection: { shop_domain: 'double.myshopify.com', access_token: 'shpat_good', webhook_secret: 'whsec', api_base_url: shopify.url },
    });
    expect(shop.status, JSON.stringify(shop.body)).toBe(201);
    const raw = JSON.stringify(shopifyWebhookOrder(9101, [{ sku: 'CRASH-1', quantity: 1 }]));
    const deliver = () =>
      fetch(`${server.url}/channels/${shop.body.id}/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/create',
          'x-shopify-hmac-sha256': sign('whsec', raw),
          'x-shopify-webhook-id': 'wh-crash-1',
        },
        body: raw,
      });
    await expect(deliver()).rejects.toThrow(); // the process died: no answer
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = box.track(spawnServe(args, env, box.dir));
    server = await second.started;
    const orders = async () => (await api('GET', `/ops/orders?shop_id=${shop.body.id}&limit=100`)).body.data;
    const deliveries = async () => (await api('GET', `/ops/shops/${shop.body.id}/deliveries`)).body.data;
    expect(await deliveries()).toEqual([expect.objectContaining({ status: 'RECEIVED', attempts: 0 })]);
    // The worker's first pass runs 5 s after start; wait for the outcome, bounded.
    for (let i = 0; i < 240 && (await deliveries())[0].status === 'RECEIVED'; i++) await new Promise((r) => setTimeout(r, 250));
    const found = await orders();
    expect(found, JSON.stringify(await deliveries())).toHaveLength(1);
    expect(await deliveries()).toEqual([expect.objectContaining({ status: 'PROCESSED', attempts: 1, order_id: found[0].id })]);
    // Shopify retries the delivery it got no answer for: still one order.
    const retry = await deliver();
    expect(retry.status).toBe(200);
    expect(await orders()).toHaveLength(1);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
