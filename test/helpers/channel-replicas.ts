import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { sealCredentials } from '../../src/domain/channels/connection.js';
import { syncDueShops } from '../../src/domain/channels/sync.js';
// The areas answering the orders' hooks and slots (intake rules: a server loads them in app.ts; the
// sync below runs in this process, which builds no app). Without it the pass found every order
// "failed" whenever no earlier test file of the same worker had loaded them.
import '../../src/domain/subscriptions.js';
import { parseSecretKey, setSecretKey } from '../../src/domain/secrets/secret-box.js';
import type { FreshUrl } from './db.js';
import { shopifyDouble, shopifyOrderNode, sign, shopifyWebhookOrder } from './platform-doubles.js';
import { replicaWorld, startReplicas, type Replicas, type ReplicaWorld } from './replicas.js';

// Sales channels on two `fos serve` replicas of one database (test/pg/channels-replicas.test.ts
// on PostgreSQL, test/api/channels-processes.test.ts on one SQLite file). The same Shopify order
// delivered concurrently to both (the platform retries, a load balancer spreads them): one fos
// order, every delivery answered 200 and stored. And the background sync run by both replicas at
// once: each shop is synced by one of them.

const SECRET = 'replica-webhook-secret';

export function channelReplicaSuite(fresh: () => Promise<FreshUrl>) {
  let w: ReplicaWorld;
  let r: Replicas;
  let drop: () => Promise<void>;
  let shopId: string;
  let url: string;

  beforeAll(async () => {
    process.env.FOS_SECRET_KEY = randomBytes(32).toString('hex');
    setSecretKey(parseSecretKey(process.env.FOS_SECRET_KEY));
    const db = await fresh();
    drop = db.cleanup;
    url = db.url;
    w = await replicaWorld(url);
    const merchant = (await w.fx.merchant()).teamId;
    const shop = await w.db.prisma.shop.create({
      data: {
        merchant_team_id: merchant,
        fulfiller_team_id: w.teamId,
        name: 'Replica Shopify',
        slug: 'replica-shopify',
        shop_type: 'SHOPIFY',
      },
    });
    shopId = shop.id;
    await w.db.prisma.shopConnection.create({
      data: {
        shop_id: shop.id,
        shop_type: 'SHOPIFY',
        shop_domain: 'replica.myshopify.com',
        api_base_url: 'https://replica.myshopify.com',
        settings: {},
        credentials: sealCredentials(shop.id, { access_token: 'shpat_x', webhook_secret: SECRET }),
      },
    });
    r = await startReplicas(url, 2);
  }, 90_000);
  afterAll(async () => {
    await r?.stop();
    await w?.db.close();
    await drop?.();
    delete process.env.FOS_SECRET_KEY;
  });

  describe('channel webhooks on two replicas', () => {
    it('makes one order from concurrent deliveries of one order to both replicas', async () => {
      const raw = JSON.stringify(shopifyWebhookOrder(8801, [{ sku: 'ANY', quantity: 2 }]));
      const deliver = (i: number) =>
        fetch(`${r.urls[i % 2]}/channels/${shopId}/webhooks`, {
          method: 'POST',
          body: raw,
          headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create', 'x-shopify-hmac-sha256': sign(SECRET, raw) },
        }).then(async (res) => ({ status: res.status, body: await res.json() }));
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(i)));
      expect(results.map((x) => [x.status, x.body.detail ?? x.body.status])).toEqual(Array(10).fill([200, 'PROCESSED']));
      expect(results.every((x) => x.body.status === 'PROCESSED')).toBe(true);
      expect(await w.db.prisma.order.count({ where: { shop_id: shopId, remote_id: 'gid://shopify/Order/8801' } })).toBe(1);
      expect(await w.db.prisma.channelDelivery.count({ where: { shop_id: shopId } })).toBe(10);
      const order = await w.db.prisma.order.findFirstOrThrow({ where: { shop_id: shopId } });
      expect(new Set(results.map((x) => x.body.delivery_id)).size).toBe(10);
      expect(await w.db.prisma.orderLineItem.count({ where: { order_id: order.id, kind: 'ORIGINAL' } })).toBe(1);

      const forged = await fetch(`${r.urls[1]}/channels/${shopId}/webhooks`, {
        method: 'POST',
        body: raw,
        headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create', 'x-shopify-hmac-sha256': sign('wrong', raw) },
      });
      expect(forged.status).toBe(401);
    }, 60_000);
  });

  describe('background sync on two replicas', () => {
    it('syncs a due shop once when both replicas run their pass at the same moment', async () => {
      // The passes are driven here, on two connections as two replicas' workers run them; the
      // spawned servers' own workers would race them on their own clock, so they stop first.
      await r.stop();
      const double = await shopifyDouble({ token: 'shpat_sync' });
      const other = await createDb(url);
      try {
        for (let i = 0; i < 3; i++) double.orders.push(shopifyOrderNode(8900 + i, [{ sku: 'ANY', quantity: 1 }]));
        // Only this connection is due (the one above has no reachable platform).
        await w.db.prisma.shopConnection.updateMany({ data: { active: false } });
        const merchant = (await w.fx.merchant()).teamId;
        const shop = await w.db.prisma.shop.create({
          data: { merchant_team_id: merchant, fulfiller_team_id: w.teamId, name: 'Synced', slug: 'synced', shop_type: 'SHOPIFY' },
        });
        await w.db.prisma.shopConnection.create({
          data: {
            shop_id: shop.id,
            shop_type: 'SHOPIFY',
            shop_domain: 'synced.myshopify.com',
            api_base_url: double.url,
            settings: {},
            credentials: sealCredentials(shop.id, { access_token: 'shpat_sync', webhook_secret: SECRET }),
          },
        });
        const now = new Date();
        const passes = await Promise.all(
          [w.db, other, w.db, other].map((db) => syncDueShops(db, { allowPrivate: true }, 15 * 60_000, now)),
        );
        expect(passes.reduce((a, b) => a + b, 0)).toBe(1);
        expect(double.calls.filter((c) => /shop \{/.test(c.body?.query ?? ''))).toHaveLength(1);
        expect(await w.db.prisma.order.count({ where: { shop_id: shop.id } })).toBe(3);
        const row = await w.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shop.id } });
        expect(row).toMatchObject({ last_sync_at: now, sync_lease_until: null, last_error: null });
      } finally {
        await other.close();
        await double.close();
      }
    }, 60_000);
  });
}
