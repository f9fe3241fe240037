import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// End to end: a fulfill through HTTP bills the SHIPPING charge from the rate card, and the outbox
// worker then pushes tracking and delivers the signed webhooks the fulfill enqueued.

let t: TestApp;
let token: string;
let merchant: { teamId: string; delegationId: string };
let server: Server;
let url: string;
const received: Array<{ type: string; data: Record<string, any>; verified: boolean }> = [];
let secret = '';

const CARD = {
  id: 'rc_e2e',
  name: 'E2E',
  version_id: 'v1',
  semantic_version: '1.0.0',
  shipping: { fee_per_package: 2, markup_percent: 50 },
};

beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant({ rate_card: CARD });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const parsed = JSON.parse(body);
      received.push({
        type: parsed.type,
        data: parsed.data,
        verified: verifySignature(secret, body, req.headers['fos-signature'] as string),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

const call = (method: string, path: string, body?: unknown) => t.call(method, path, { token, ...(body !== undefined ? { body } : {}) });

describe('fulfill -> charge -> webhooks', () => {
  it('bills shipping in the fulfill and delivers the events it enqueued', async () => {
    const hook = await call('POST', '/v1/webhooks', { url, events: ['package.fulfilled', 'charge.created', 'tracking.push'] });
    expect(hook.statusCode).toBe(201);
    secret = hook.json().secret;

    const f = await fulfillmentFixture(t, { merchantTeamId: merchant.teamId, lines: [{ quantity: 1, onHand: 5 }], status: 'ACCEPTED' });
    const shop = await t.db.prisma.shop.create({
      data: { merchant_team_id: merchant.teamId, name: 'Counter', slug: 'counter', shop_type: 'MANUAL' },
    });
    await t.db.prisma.order.update({ where: { id: f.order.id }, data: { shop_id: shop.id } });
    expect(
      (await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 15 })).statusCode,
    ).toBe(200);
    const pkg = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      weight: 500,
      weight_unit: 'G',
      package_line_items: [{ sku: f.foLines[0]!.sku, quantity: 1 }],
    });
    expect(pkg.statusCode, pkg.body).toBe(201);
    const label = await call('POST', `/v1/ops/packages/${pkg.json().id}/label`, {
      label_url: 'https://labels.example/l.pdf',
      tracking_number: 'TRKE2E1',
      carrier: 'USPS',
      service: 'Priority',
      cost: 8,
      cost_currency: 'USD',
    });
    expect(label.statusCode, label.body).toBe(200);
    const fulfill = await call('POST', `/v1/ops/packages/${pkg.json().id}/fulfill`, { locked_by: 'packer' });
    expect(fulfill.statusCode, fulfill.body).toBe(200);

    const charges = (await t.call('GET', '/v1/ops/charges', { token, query: { order_id: f.order.id, category: 'SHIPPING' } })).json();
    expect(charges.data).toHaveLength(1);
    const charge = charges.data[0];
    expect(charge).toMatchObject({
      category: 'SHIPPING',
      original_amount: 8,
      calculated_amount: 14,
      merchant_team_id: merchant.teamId,
      fulfillment_delegation_id: merchant.delegationId,
      order_id: f.order.id,
      fulfillment_order_id: f.fo.id,
    });
    expect(charge.pricing_config).toMatchObject({
      origination: 'ORDER',
      shipping_label: { tracking_code: 'TRKE2E1', price: 8 },
      order: { order_number: f.order.order_number, shop_type: 'MANUAL' },
    });

    const stats = await createOutboxWorker(t.db, { debug() {}, info() {}, warn() {}, error() {} }, { allowPrivateWebhooks: true }).runOnce(
      new Date(),
    );
    expect(stats.failed).toBe(0);
    expect(received.every((r) => r.verified)).toBe(true);
    expect(received.map((r) => r.type).sort()).toEqual(['charge.created', 'package.fulfilled', 'tracking.push']);
    expect(received.find((r) => r.type === 'charge.created')!.data.id).toBe(charge.id);
    // The order's shop as the fulfill wrote it, with its platform (the push is routed by it).
    expect(received.find((r) => r.type === 'tracking.push')!.data).toMatchObject({
      order: { id: f.order.id, order_number: f.order.order_number },
      shop: { id: shop.id, name: 'Counter', shop_type: 'MANUAL' },
    });
    const push = await t.db.prisma.outboxEvent.findFirstOrThrow({ where: { kind: 'tracking.push' } });
    expect(push.delivered_at).not.toBeNull();
    expect(push.result).toMatchObject({ tracking_push: { status: 'SKIPPED', shop_type: 'MANUAL', order_id: f.order.id } });
  });
});
