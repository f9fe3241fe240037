import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';

// docs/carriers.md "When no integration is left": disconnecting the last real integration does
// not bring the test table back by itself (its labels are not valid for shipping); rating then
// fails with 409 naming `fos carriers connect table` (and the other ways back), and after that
// command rating works again through the table.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function pkg() {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    weight: 500,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  return p.json().id as string;
}

describe('rating after the last integration is disconnected', () => {
  it('fails naming fos carriers connect table, and rates through the table once it is connected', async () => {
    const rate = await call('POST', '/v1/ops/carrier-rates', {
      carrier_id: 'ups',
      carrier_name: 'UPS',
      service_id: 'ground',
      service_name: 'Ground',
      amount: 5,
      estimated_days: 3,
    });
    expect(rate.statusCode, rate.body).toBe(201);
    const ep = await call('POST', '/v1/ops/carrier-integrations', {
      name: 'EasyPost',
      type: 'EASYPOST',
      credentials: { api_key: 'EZTK123' },
    });
    expect(ep.statusCode, ep.body).toBe(201);
    const gone = await call('DELETE', `/v1/ops/carrier-integrations/${ep.json().id}`);
    expect(gone.statusCode, gone.body).toBe(200);

    const id = await pkg();
    const refused = await call('POST', `/v1/ops/packages/${id}/label`, { rate_strategy: 'CHEAPEST' });
    expect(refused.statusCode, refused.body).toBe(409);
    const body = refused.json();
    expect(body.detail).toContain('fos carriers connect table');
    expect(body.rate_error_data.message).toContain('fos carriers connect table');
    const stored = await t.db.prisma.package.findUniqueOrThrow({ where: { id }, include: { shipping_label: true } });
    expect(stored.error_message).toContain('fos carriers connect table');
    expect(stored.shipping_label).toBeNull();

    const table = await call('POST', '/v1/ops/carrier-integrations', { name: 'Rate table', type: 'TABLE' });
    expect(table.statusCode, table.body).toBe(201);
    const bought = await call('POST', `/v1/ops/packages/${id}/label`, { rate_strategy: 'CHEAPEST' });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().shipping_label_tracking_code).toBeTruthy();
    const labelled = await t.db.prisma.package.findUniqueOrThrow({ where: { id }, include: { shipping_label: true } });
    expect(labelled.shipping_label?.carrier_integration_id).toBe(table.json().id);
  });
});
