import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, connectShopify, stockedProduct } from '../helpers/channels.js';
import { shopifyWebhookOrder } from '../helpers/platform-doubles.js';
import { recoverDeliveries } from '../../src/domain/channels/deliveries.js';

// Stored deliveries a stopped process never took in (issue 37 item 7; the kill -9 run is
// test/e2e/channels-crash.test.ts): the worker's pass leaves a RECEIVED delivery alone while a
// live request may still be working on it (the stale window), then takes it in once; two
// replicas' passes racing take it once.

let w: ChannelsWorld;
let t: TestApp;
let shop: { id: string };
beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  shop = await connectShopify(t, w.merchant.teamId, w.shopify);
  await stockedProduct(t, w.merchant.teamId, 'REC-1', 10);
});
afterAll(async () => {
  await w?.close();
});

describe('RECEIVED deliveries after a restart', () => {
  it('are taken in once they are past the stale window, once, even by racing passes', async () => {
    const d = await t.db.prisma.channelDelivery.create({
      data: { shop_id: shop.id, topic: 'orders/create', body: JSON.stringify(shopifyWebhookOrder(9301, [{ sku: 'REC-1', quantity: 1 }])) },
    });
    expect(await recoverDeliveries(t.db, { allowPrivate: true })).toBe(0); // fresh: maybe still in a request's hands
    const later = new Date(Date.now() + 3 * 60_000);
    const taken = await Promise.all([1, 2, 3].map(() => recoverDeliveries(t.db, { allowPrivate: true }, later)));
    expect(taken.reduce((a, b) => a + b, 0)).toBe(1);
    const after = await t.db.prisma.channelDelivery.findUniqueOrThrow({ where: { id: d.id } });
    expect(after).toMatchObject({ status: 'PROCESSED', attempts: 1 });
    expect(await t.db.prisma.order.count({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9301' } })).toBe(1);
    expect(await recoverDeliveries(t.db, { allowPrivate: true }, new Date(Date.now() + 10 * 60_000))).toBe(0);
  });
  it('a delivery one pass claimed is not taken again by another pass on the same clock within the stale window', async () => {
    // A delivery whose shop is gone: the pass claims it, then fails to take it in, so it stays
    // RECEIVED with the claim's stamp (the window in which a racing pass read it after the claim).
    const d = await t.db.prisma.channelDelivery.create({
      data: { shop_id: '00000000-0000-7000-8000-00000000dead', topic: 'orders/create', body: '{}' },
    });
    try {
      const later = new Date(Date.now() + 3 * 60_000);
      await expect(recoverDeliveries(t.db, { allowPrivate: true }, later)).rejects.toThrow();
      expect(await t.db.prisma.channelDelivery.findUniqueOrThrow({ where: { id: d.id } })).toMatchObject({ status: 'RECEIVED' });
      expect(await recoverDeliveries(t.db, { allowPrivate: true }, later)).toBe(0);
    } finally {
      await t.db.prisma.channelDelivery.delete({ where: { id: d.id } });
    }
  });
});
