import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { shippoDouble, type ShippoDouble } from '../helpers/shippo-double.js';

// Signature and insurance (automation rules' delivery_confirmation / insurance_amount land in the
// order's config, which packages inherit: docs/automation.md) reach the platforms as their own
// options: EasyPost options.delivery_confirmation on the shipment and insurance with the buy
// (POST /shipments/{id}/buy { rate, insurance }); Shippo extra.signature_confirmation and
// extra.insurance { amount, currency, content } on the shipment.

let t: TestApp;
let ep: EasyPostDouble;
let sh: ShippoDouble;

beforeAll(async () => {
  [t, ep, sh] = await Promise.all([testApp({ allowPrivateWebhooks: true }), easypostDouble(), shippoDouble()]);
  for (const body of [
    { name: 'EasyPost', type: 'EASYPOST', api_base_url: `${ep.url}/v2`, credentials: { api_key: ep.apiKey, webhook_secret: 'x' } },
    { name: 'Shippo', type: 'SHIPPO', api_base_url: sh.url, credentials: { api_key: sh.apiKey, webhook_secret: 'y' } },
  ]) {
    const r = await t.call('POST', '/v1/ops/carrier-integrations', { body });
    expect(r.statusCode, r.body).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close(), sh?.close()]);
});

async function packageWith(config: Record<string, unknown>) {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const res = await t.call('POST', '/v1/ops/packages', {
    body: {
      fulfillment_order_id: f.fo.id,
      weight: 900,
      weight_unit: 'G',
      length: 200,
      width: 150,
      height: 100,
      measurement_unit: 'MM',
      config,
      package_line_items: f.foLines.map((l: any) => ({ sku: l.sku, quantity: 1 })),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('signature and insurance at label purchase', () => {
  it('EasyPost: delivery_confirmation on the shipment, insurance with the buy; Shippo: extra', async () => {
    const p = await packageWith({ delivery_confirmation: 'ADULT_SIGNATURE', insurance_policy: { mode: 'amount', amount: 150 } });
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label`, { body: { service_id: 'GroundAdvantage' } });
    expect(res.statusCode, res.body).toBe(200);
    const created = ep.calls(/^\/v2\/shipments$/, 'POST').find((r) => r.body.shipment.reference === p.id)!;
    expect(created.body.shipment.options).toMatchObject({ delivery_confirmation: 'ADULT_SIGNATURE' });
    const shipment = [...ep.shipments.values()].find((s) => s.reference === p.id && s.postage_label)!;
    expect(ep.calls(new RegExp(`/v2/shipments/${shipment.id}/buy`))[0]!.body).toEqual({
      rate: { id: shipment.selected_rate.id },
      insurance: '150.00',
    });
    expect(shipment.insurance).toBe('150.00');
    const quoted = sh.calls(/^\/shipments\/?$/, 'POST').find((r) => r.body.metadata === p.id)!;
    expect(quoted.body.extra).toEqual({
      signature_confirmation: 'ADULT',
      insurance: { amount: '150.00', currency: 'USD', content: 'Merchandise' },
    });
  });

  it('without them nothing extra is sent (NO_SIGNATURE, the default, asks the carriers for nothing)', async () => {
    const p = await packageWith({ delivery_confirmation: 'NO_SIGNATURE' });
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label`, { body: { service_id: 'GroundAdvantage' } });
    expect(res.statusCode, res.body).toBe(200);
    const created = ep.calls(/^\/v2\/shipments$/, 'POST').find((r) => r.body.shipment.reference === p.id)!;
    expect(created.body.shipment.options).not.toHaveProperty('delivery_confirmation');
    const shipment = [...ep.shipments.values()].find((s) => s.reference === p.id && s.postage_label)!;
    expect(ep.calls(new RegExp(`/v2/shipments/${shipment.id}/buy`))[0]!.body).toEqual({ rate: { id: shipment.selected_rate.id } });
    const quoted = sh.calls(/^\/shipments\/?$/, 'POST').find((r) => r.body.metadata === p.id)!;
    expect(quoted.body.extra).toBeUndefined();
  });
});
