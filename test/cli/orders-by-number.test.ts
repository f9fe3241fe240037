// Orders by number through the real command tree against a REAL server: `fos orders get 1001`,
// `'#1001'`, unknown and ambiguous numbers, priority by number, and `fos fulfill run '#…'`.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { convertedOrder, SHIP_TO } from '../helpers/fixtures.js';
import { runCli, type RunCliOptions } from './helpers/cli.js';

let t: TestApp;
let env: Record<string, string>;
let first: { id: string; order_number: string };
let merchant = '';

beforeAll(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const key = await t.key({ powerRole: 'ADMIN', tier: 4 });
  env = {
    FOS_BASE_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`,
    FOS_API_KEY: key.token,
    FOS_LOCK_OWNER: 'station-3',
  };
  const made = await convertedOrder(t, t.adminToken, [{ sku: 'NUM-A', quantity: 1, onHand: 50 }]);
  first = made.order;
  merchant = made.merchantTeamId;
});
afterAll(() => t?.close());

const fos = (args: string[], opts: RunCliOptions = {}) => runCli(args, { env, ...opts });

/** A converted order with this exact order number. */
async function numbered(orderNumber: string): Promise<{ id: string; order_number: string }> {
  const draft = await t.call('POST', '/v1/ops/draft-orders', {
    body: {
      merchant_team_id: merchant,
      payment_status: 'PAID',
      shipping_address: SHIP_TO,
      order_number: orderNumber,
      line_items: [{ sku: 'NUM-A', quantity: 1, price: 10 }],
    },
  });
  expect(draft.statusCode, draft.body).toBe(201);
  const order = await t.call('POST', `/v1/ops/draft-orders/${draft.json().id}/convert`);
  expect(order.statusCode, order.body).toBe(200);
  return order.json();
}

describe('orders by number', () => {
  it('fos orders get 1001 and "#1001" find the order; the id still works', async () => {
    expect(first.order_number).toMatch(/^#\d{4,}$/);
    const bare = first.order_number.slice(1);
    for (const ref of [bare, first.order_number, first.id]) {
      const r = await fos(['orders', 'get', ref, '--json', 'id,order_number']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ id: first.id, order_number: first.order_number });
    }
    const p = await fos(['orders', 'priority', first.order_number, 'high', '--json', 'id,priority']);
    expect(JSON.parse(p.stdout)).toEqual({ id: first.id, priority: 'HIGH' });
  });

  it('an unknown number is not found (exit 4); a number on two orders is ambiguous (exit 2) and lists them', async () => {
    const unknown = await fos(['orders', 'get', '#987654']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toBe('error: no order has order number #987654 (fos orders list shows them)\n');
    const a = await numbered('WEB-2001');
    const b = await numbered('#WEB-2001');
    const amb = await fos(['orders', 'get', 'web-2001']);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toContain('order number web-2001 is ambiguous');
    expect(amb.stderr).toContain(a.id);
    expect(amb.stderr).toContain(b.id);
    // a prefix of a longer number is not a match
    const c = await numbered('WEB-30010');
    expect(JSON.parse((await fos(['orders', 'get', 'WEB-30010', '--json', 'id'])).stdout).id).toBe(c.id);
    expect((await fos(['orders', 'get', 'WEB-3001'])).code).toBe(4);
    const short = await fos(['orders', 'get', '#7']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('searched from 3 characters');
  });

  it('fos fulfill run "#number" fulfills that order', async () => {
    const o = await numbered('SHIP-4242');
    const r = await fos([
      'fulfill',
      'run',
      '#SHIP-4242',
      '--label-url',
      'https://labels.example/1.pdf',
      '--tracking',
      '1Z1',
      '--carrier',
      'UPS',
      '--service',
      'Ground',
      '--cost',
      '5',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const results = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ order_id: o.id, status: 'fulfilled' });
  });
});
