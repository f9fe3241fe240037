import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { shippoDouble, type ShippoDouble } from '../helpers/shippo-double.js';
import { easypostSignature } from '../../src/connectors/carriers/easypost/webhook.js';
import { shippoSignature } from '../../src/connectors/carriers/shippo/webhook.js';

// Voids refunded through the platform (refund_status SUBMITTED, then REFUNDED by a signed
// webhook; a manifested label cannot be voided) and signed tracking webhooks moving a label to
// DELIVERED with its history recorded and shipment.status_changed emitted to both teams; a bad
// signature changes nothing.

let t: TestApp;
let ep: EasyPostDouble;
let sh: ShippoDouble;
const ids: Record<string, string> = {};

beforeAll(async () => {
  [t, ep, sh] = await Promise.all([testApp({ allowPrivateWebhooks: true }), easypostDouble(), shippoDouble()]);
  const mk = async (body: object) => (await t.call('POST', '/v1/ops/carrier-integrations', { body })).json().id as string;
  ids.ep = await mk({
    name: 'EasyPost',
    type: 'EASYPOST',
    api_base_url: `${ep.url}/v2`,
    credentials: { api_key: ep.apiKey, webhook_secret: 'ep-secret' },
  });
  ids.sh = await mk({
    name: 'Shippo',
    type: 'SHIPPO',
    api_base_url: sh.url,
    credentials: { api_key: sh.apiKey, webhook_secret: 'sh-secret' },
  });
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close(), sh?.close()]);
});

async function labelled(body: object) {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const p = (
    await t.call('POST', '/v1/ops/packages', {
      body: {
        fulfillment_order_id: f.fo.id,
        name: 'Box',
        weight: 900,
        weight_unit: 'G',
        package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
      },
    })
  ).json();
  const res = await t.call('POST', `/v1/ops/packages/${p.id}/label`, { body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const postEasyPost = (body: object, secret = 'ep-secret') => {
  const raw = JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: `/v1/carriers/${ids.ep}/webhooks`,
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-hmac-signature': easypostSignature(secret, raw) },
  });
};

const tracker = (code: string, details: Array<[string, string]>) => ({
  object: 'Event',
  description: 'tracker.updated',
  mode: 'test',
  id: 'evt_1',
  result: {
    object: 'Tracker',
    id: 'trk_1',
    tracking_code: code,
    status: details.at(-1)![0],
    carrier: 'USPS',
    tracking_details: details.map(([status, datetime]) => ({
      object: 'TrackingDetail',
      status,
      message: `status ${status}`,
      datetime,
      tracking_location: { object: 'TrackingLocation', city: 'Reno', state: 'NV', country: 'US', zip: null },
    })),
  },
});

describe('void through the platform', () => {
  it('refunds through EasyPost (SUBMITTED), then REFUNDED by a signed refund event', async () => {
    const p = await labelled({ rate_strategy: 'CHEAPEST' });
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label/void`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().shipping_label).toMatchObject({ refund_status: 'SUBMITTED' });
    expect(ep.calls(new RegExp(`/v2/shipments/${p.shipping_label.remote_id}/refund`), 'POST')).toHaveLength(1);

    const event = {
      object: 'Event',
      description: 'refund.successful',
      result: {
        object: 'Refund',
        id: 'rfnd_1',
        tracking_code: p.shipping_label_tracking_code,
        status: 'refunded',
        shipment_id: p.shipping_label.remote_id,
      },
    };
    const forged = await postEasyPost(event, 'not-the-secret');
    expect(forged.statusCode).toBe(401);
    expect((await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } })).refund_status).toBe('SUBMITTED');
    const ok = await postEasyPost(event);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ received: true, applied: true });
    expect((await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } })).refund_status).toBe('REFUNDED');

    // Relabelled with an uploaded label: the voided EasyPost label's file is not served any more.
    const up = await t.call('POST', `/v1/ops/packages/${p.id}/label`, {
      body: {
        label_url: 'https://l.example/u.pdf',
        tracking_number: 'U1',
        carrier: 'UPS',
        service: 'Ground',
        cost: 4,
        cost_currency: 'USD',
      },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(await t.db.prisma.carrierDocument.count({ where: { package_id: p.id } })).toBe(0);
    expect((await t.call('GET', `/v1/ops/packages/${p.id}/label`)).statusCode).toBe(409); // an uploaded label prints from its own URL
  });

  it('refunds through Shippo with the label transaction', async () => {
    const p = await labelled({ service_id: 'usps_priority' });
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label/void`);
    expect(res.statusCode, res.body).toBe(200);
    const tx = sh.transactions.at(-1)!;
    expect(sh.calls(/^\/refunds$/, 'POST').at(-1)!.body).toEqual({ transaction: tx.object_id, async: false });
    expect(res.json().shipping_label).toMatchObject({ refund_status: 'SUBMITTED' }); // Shippo queued it

    // Shippo's transaction_updated tells the outcome (here: refused); a wrong URL token changes nothing.
    const raw = JSON.stringify({
      event: 'transaction_updated',
      test: true,
      data: { object_id: tx.object_id, status: 'REFUNDREJECTED', tracking_number: tx.tracking_number },
    });
    const post = (q: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/carriers/${ids.sh}/webhooks?shippo_token=${q}`,
        payload: raw,
        headers: { 'content-type': 'application/json' },
      });
    const status = async () => (await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } })).refund_status;
    expect((await post('wrong')).statusCode).toBe(401);
    expect(await status()).toBe('SUBMITTED');
    const ok = await post('sh-secret');
    expect(ok.json()).toEqual({ received: true, applied: true });
    expect(await status()).toBe('REJECTED');
    const told = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'shipping_label.refund_updated' } });
    expect(told.filter((e) => (e.payload as any).package_id === p.id).map((e) => (e.payload as any).refund_status)).toEqual([
      'REJECTED',
      'REJECTED',
    ]);
  });

  it('a label of a disconnected integration is not voided until it is reconnected (the platform must refund it)', async () => {
    const p = await labelled({ rate_strategy: 'CHEAPEST' });
    expect(p.carrier_integration_id).toBe(ids.ep);
    expect((await t.call('DELETE', `/v1/ops/carrier-integrations/${ids.ep}`)).statusCode).toBe(200);
    try {
      const refused = await t.call('POST', `/v1/ops/packages/${p.id}/label/void`);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().detail).toContain('is disconnected, so EasyPost cannot be asked');
      expect((await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } })).voided_at).toBeNull();
    } finally {
      const back = await t.call('PATCH', `/v1/ops/carrier-integrations/${ids.ep}`, {
        body: { credentials: { api_key: ep.apiKey, webhook_secret: 'ep-secret' }, enabled: true },
      });
      expect(back.statusCode, back.body).toBe(200);
    }
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label/void`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().shipping_label).toMatchObject({ refund_status: 'SUBMITTED' });
    expect(ep.calls(new RegExp(`/v2/shipments/${p.shipping_label.remote_id}/refund`), 'POST')).toHaveLength(1);
  });

  it('a manifested label is not voided and the platform is not asked', async () => {
    const p = await labelled({ rate_strategy: 'CHEAPEST' });
    await t.db.prisma.package.update({ where: { id: p.id }, data: { scan_form_id: 'sf-manifested' } });
    const before = ep.calls(/\/refund$/).length;
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label/void`);
    expect(res.statusCode).toBe(409);
    expect(ep.calls(/\/refund$/).length).toBe(before);
  });

  it('a refund whose answer was lost is read back from the shipment: the label is voided as EasyPost holds it', async () => {
    const p = await labelled({ rate_strategy: 'CHEAPEST' });
    const undo = ep.late(/\/refund$/, 'lose', 'POST'); // EasyPost refunds it, the answer never arrives
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label/void`);
    undo();
    expect(res.statusCode, res.body).toBe(200);
    expect(ep.shipments.get(p.shipping_label.remote_id).refund_status).toBe('submitted');
    expect(res.json().shipping_label).toMatchObject({ refund_status: 'SUBMITTED', voided_at: expect.any(String) });
    expect(ep.calls(new RegExp(`/v2/shipments/${p.shipping_label.remote_id}$`), 'GET').length).toBeGreaterThan(0);
  });

  it('a Shippo refund whose answer was lost is read back from its refunds: the label is voided as Shippo holds it, refunded once', async () => {
    const p = await labelled({ service_id: 'usps_priority' });
    const tx = sh.transactions.at(-1)!;
    const undo = sh.late(/^\/refunds$/, 'lose', 'POST'); // Shippo queues the refund, the answer never arrives
    const res = await t.call('POST', `/v1/ops/packages/${p.id}/label/void`);
    undo();
    expect(res.statusCode, res.body).toBe(200);
    expect(sh.refunds.filter((r) => r.transaction === tx.object_id)).toEqual([expect.objectContaining({ status: 'QUEUED' })]);
    expect(sh.calls(/^\/refunds\/?$/, 'GET').length).toBeGreaterThan(0); // read back: GET /refunds
    expect(res.json().shipping_label).toMatchObject({ refund_status: 'SUBMITTED', voided_at: expect.any(String) });
    const label = await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } });
    expect(label).toMatchObject({ refund_status: 'SUBMITTED', voided_at: expect.any(Date), remote_transaction_id: tx.object_id });
  });

  it('refund.successful for a label fos still holds valid voids it (EasyPost refunded it; fos never heard)', async () => {
    const p = await labelled({ rate_strategy: 'CHEAPEST' });
    const ok = await postEasyPost({
      object: 'Event',
      description: 'refund.successful',
      result: {
        object: 'Refund',
        id: 'rfnd_2',
        tracking_code: p.shipping_label_tracking_code,
        status: 'refunded',
        shipment_id: p.shipping_label.remote_id,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const label = await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } });
    expect(label).toMatchObject({ refund_status: 'REFUNDED', voided_at: expect.any(Date) });
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).shipment_status).toBeNull();
  });
});

describe('tracking webhooks', () => {
  it('EasyPost tracker events move the label to DELIVERED once each, history listed, both teams told', async () => {
    const p = await labelled({ rate_strategy: 'CHEAPEST' });
    const code = p.shipping_label_tracking_code;
    const bad = await t.app.inject({
      method: 'POST',
      url: `/v1/carriers/${ids.ep}/webhooks`,
      payload: JSON.stringify(tracker(code, [['delivered', '2026-11-20T10:00:00Z']])),
      headers: { 'content-type': 'application/json', 'x-hmac-signature': 'hmac-sha256-hex=00' },
    });
    expect(bad.statusCode).toBe(401);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).shipment_status).toBe('LABEL_PRINTED');

    const r1 = await postEasyPost(
      tracker(code, [
        ['pre_transit', '2026-11-18T10:00:00Z'],
        ['in_transit', '2026-11-19T10:00:00Z'],
      ]),
    );
    expect(r1.statusCode, r1.body).toBe(200);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).shipment_status).toBe('IN_TRANSIT');
    const r2 = await postEasyPost(
      tracker(code, [
        ['pre_transit', '2026-11-18T10:00:00Z'],
        ['in_transit', '2026-11-19T10:00:00Z'],
        ['out_for_delivery', '2026-11-20T08:00:00Z'],
        ['delivered', '2026-11-20T10:00:00Z'],
      ]),
    );
    expect(r2.statusCode).toBe(200);
    const got = (await t.call('GET', `/v1/ops/packages/${p.id}`)).json();
    expect(got).toMatchObject({ shipment_status: 'DELIVERED', shipping_label: { shipment_status: 'DELIVERED' } });
    const list = (await t.call('GET', `/v1/ops/packages/${p.id}/tracking-events`)).json();
    expect(list.data.map((e: any) => e.status)).toEqual(['PRE_TRANSIT', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED']);
    expect(list.data[0]).toMatchObject({
      provider_status: 'pre_transit',
      message: 'status pre_transit',
      location: { city: 'Reno', state: 'NV', country: 'US' },
    });
    // A late, older event does not move it back.
    await postEasyPost(tracker(code, [['in_transit', '2026-11-19T12:00:00Z']]));
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).shipment_status).toBe('DELIVERED');
    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'shipment.status_changed' }, orderBy: { id: 'asc' } });
    const mine = events.filter((e) => (e.payload as any).package_id === p.id);
    expect(mine.map((e) => (e.payload as any).shipment_status)).toEqual(['IN_TRANSIT', 'IN_TRANSIT', 'DELIVERED', 'DELIVERED']);
    expect(new Set(mine.map((e) => e.team_id))).toEqual(new Set([t.teamId, p.merchant_team_id]));
  });

  it('Shippo track_updated with its HMAC header (or URL token) moves the label; a stale signature is refused', async () => {
    const p = await labelled({ service_id: 'usps_priority' });
    const body = JSON.stringify({
      event: 'track_updated',
      test: true,
      data: {
        carrier: 'usps',
        tracking_number: p.shipping_label_tracking_code,
        tracking_status: {
          status: 'DELIVERED',
          status_details: 'Delivered',
          status_date: '2026-11-21T09:00:00Z',
          location: { city: 'Arlington', state: 'VA', zip: '22201', country: 'US' },
        },
        tracking_history: [
          { status: 'TRANSIT', status_details: 'Accepted', status_date: '2026-11-20T09:00:00Z' },
          { status: 'DELIVERED', status_details: 'Delivered', status_date: '2026-11-21T09:00:00Z' },
        ],
      },
    });
    const post = (headers: Record<string, string>, query = '') =>
      t.app.inject({
        method: 'POST',
        url: `/v1/carriers/${ids.sh}/webhooks${query}`,
        payload: body,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const stale = await post({ 'shippo-auth-signature': shippoSignature('sh-secret', body, Math.floor(Date.now() / 1000) - 3600) });
    expect(stale.statusCode).toBe(401);
    expect((await post({}, '?shippo_token=wrong')).statusCode).toBe(401);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).shipment_status).toBe('LABEL_PRINTED');
    expect(await t.db.prisma.trackingEvent.count({ where: { package_id: p.id } })).toBe(0);
    const ok = await post({ 'shippo-auth-signature': shippoSignature('sh-secret', body, Math.floor(Date.now() / 1000)) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).shipment_status).toBe('DELIVERED');
    expect((await post({}, '?shippo_token=sh-secret')).json()).toEqual({ received: true, applied: false }); // already recorded
  });

  it('an unknown integration is a 404', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/carriers/nope/webhooks',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(404);
  });
});
