import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { recoverPurchases } from '../../src/domain/fulfillment/labels.js';

// The late purchase answer (finishPurchase, issue 37): EasyPost sells the label but its answer is
// held; meanwhile the claim's lease runs out and recovery reads the purchase back and attaches it.
// When the held answer then arrives, the label it carries is the package's label already: the
// request answers 200 with it, and nothing is refunded behind the label's back. A package that
// was labelled another way meanwhile (an upload) instead gets the sold label refunded once and
// the claim closed. The order of events is set by the test (a deferred answer), not by timers.

let t: TestApp;
let ep: EasyPostDouble;
let token: string;

beforeAll(async () => {
  [t, ep] = await Promise.all([testApp({ allowPrivateWebhooks: true }), easypostDouble()]);
  token = (await t.key({ tier: 4 })).token;
  const r = await t.call('POST', '/v1/ops/carrier-integrations', {
    token,
    body: { name: 'EasyPost', type: 'EASYPOST', api_base_url: `${ep.url}/v2`, credentials: { api_key: ep.apiKey } },
  });
  expect(r.statusCode, r.body).toBe(201);
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close()]);
});

async function newPackage() {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const res = await t.call('POST', '/v1/ops/packages', {
    token,
    body: {
      fulfillment_order_id: f.fo.id,
      name: 'Box',
      weight: 900,
      weight_unit: 'G',
      package_line_items: [{ sku: f.foLines[0]!.sku, quantity: 1 }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** Recovery as the worker runs it once the claim's lease has run out. */
async function recoverNow(packageId: string) {
  await t.db.prisma.labelPurchase.updateMany({ where: { package_id: packageId, state: 'CLAIMED' }, data: { lease_until: new Date(0) } });
  return recoverPurchases(t.db, { allowPrivate: true });
}

describe('a purchase answered after recovery settled it', () => {
  it('keeps the label recovery attached (the same one the late answer carries) and refunds nothing', async () => {
    const id = await newPackage();
    const slow = ep.deferred(/\/buy$/, 'POST');
    const buying = t.call('POST', `/v1/ops/packages/${id}/label`, { token, body: { rate_strategy: 'CHEAPEST' } });
    const buy = await slow.done; // EasyPost sold it; its answer is held
    expect(await recoverNow(id)).toBe(1);
    const sold = ep.shipments.get(buy.path.split('/')[3]!);
    expect(sold.postage_label).toBeTruthy();
    const attached = await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: id } });
    expect(attached).toMatchObject({ remote_id: sold.id, tracking_code: sold.tracking_code, voided_at: null });
    expect(await t.db.prisma.labelPurchase.findFirstOrThrow({ where: { package_id: id } })).toMatchObject({ state: 'ATTACHED' });

    slow.answer();
    const res = await buying;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().shipping_label).toMatchObject({ tracking_code: sold.tracking_code, remote_id: sold.id, voided_at: null });
    expect(ep.calls(/\/refund$/)).toHaveLength(0);
    expect(sold.refund_status ?? null).toBeNull();
    expect(await t.db.prisma.shippingLabel.count({ where: { package_id: id } })).toBe(1);
    expect(await t.db.prisma.labelPurchase.findFirstOrThrow({ where: { package_id: id } })).toMatchObject({ state: 'ATTACHED' });
  });

  it('refunds the sold label once when the package was labelled another way meanwhile, and closes the claim', async () => {
    const id = await newPackage();
    const slow = ep.deferred(/\/buy$/, 'POST');
    const buying = t.call('POST', `/v1/ops/packages/${id}/label`, { token, body: { rate_strategy: 'CHEAPEST' } });
    const buy = await slow.done;
    const soldId = buy.path.split('/')[3]!;
    // Someone uploads a label of their own while the purchase is out (an upload needs no claim).
    const upload = await t.call('POST', `/v1/ops/packages/${id}/label`, {
      token,
      body: {
        label_url: 'https://labels.example/own.pdf',
        tracking_number: 'OWN1',
        carrier: 'UPS',
        service: 'Ground',
        cost: 5,
        cost_currency: 'USD',
      },
    });
    expect(upload.statusCode, upload.body).toBe(200);

    slow.answer();
    const res = await buying;
    expect(res.statusCode, res.body).toBe(409);
    expect(ep.calls(new RegExp(`/v2/shipments/${soldId}/refund`), 'POST')).toHaveLength(1);
    expect(ep.shipments.get(soldId).refund_status).toBe('submitted');
    expect(await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: id } })).toMatchObject({ tracking_code: 'OWN1' });
    expect(await t.db.prisma.labelPurchase.findFirstOrThrow({ where: { package_id: id } })).toMatchObject({ state: 'ABANDONED' });
  });
});
