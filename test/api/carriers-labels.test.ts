import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { shippoDouble, type ShippoDouble } from '../helpers/shippo-double.js';
import { recoverPurchases } from '../../src/domain/fulfillment/labels.js';
import { claimPurchase } from '../../src/domain/fulfillment/carriers/purchases.js';
import { createWarehouse } from '../../src/domain/teams/teams.js';

// Rates and labels through carrier integrations: rate shopping across EasyPost, Shippo and the
// rate table in parallel (CHEAPEST, FASTEST, a named service), a slow platform cut off by the
// timeout and a failing one reported in rate_error_data.detailed_errors, labels bought through
// the chosen platform with the label file stored and served at label_url, a retried buy that
// buys once, customs data for an international package and its commercial invoice kept.

let t: TestApp;
let ep: EasyPostDouble;
let sh: ShippoDouble;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  [t, ep, sh] = await Promise.all([testApp({ allowPrivateWebhooks: true }), easypostDouble(), shippoDouble()]);
  token = (await t.key({ tier: 4 })).token;
  const mk = async (body: object) => {
    const r = await t.call('POST', '/v1/ops/carrier-integrations', { body });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().id as string;
  };
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
  ids.table = await mk({ name: 'Table', type: 'TABLE' });
  await t.call('POST', '/v1/ops/carrier-rates', {
    body: { carrier_id: 'fedex', carrier_name: 'FedEx', service_id: 'home', service_name: 'Home Delivery', amount: 6.5, estimated_days: 4 },
  });
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close(), sh?.close()]);
});

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function newPackage(shippingAddress?: Record<string, string | null>, lines = [{ quantity: 1 }]) {
  const f = await fulfillmentFixture(t, { lines, status: 'ACCEPTED', shippingAddress });
  const res = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    name: 'Box',
    weight: 1500,
    weight_unit: 'G',
    length: 300,
    width: 200,
    height: 100,
    measurement_unit: 'MM',
    package_line_items: f.foLines.map((l: any) => ({ sku: l.sku, quantity: 1 })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('rate shopping across integrations', () => {
  it('buys the cheapest rate through EasyPost and serves the stored label at label_url', async () => {
    const p = await newPackage();
    const before = ep.calls(/\/buy$/).length;
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json();
    const shipment = [...ep.shipments.values()].find((s) => s.reference === p.id && s.postage_label)!;
    expect(b).toMatchObject({
      carrier_integration_id: ids.ep,
      carrier_integration_type: 'EASYPOST',
      carrier_integration_name: 'EasyPost',
      carrier_id: 'usps',
      service_id: 'GroundAdvantage',
      provider_rate_id: shipment.selected_rate.id,
      shipping_label_tracking_code: shipment.tracking_code,
    });
    expect(b.shipping_label).toMatchObject({
      tracking_code: shipment.tracking_code,
      tracking_url: shipment.tracker.public_url,
      price: 5.93,
      list_rate: 7.1,
      retail_price: 8.25,
      delivery_days: 3,
      zone: '4',
      remote_id: shipment.id,
      carrier_integration_type: 'EASYPOST',
      label_url: `http://localhost:80/v1/ops/packages/${p.id}/label`,
    });
    expect(ep.calls(/\/buy$/).length).toBe(before + 1);
    // What fos sent: the shipment (inches, ounces, 4x6 PDF, the package as reference) and the rate bought.
    const created = ep.calls(/^\/v2\/shipments$/, 'POST').find((r) => r.body.shipment.reference === p.id)!;
    expect(created.body.shipment).toMatchObject({
      parcel: { length: 11.81, width: 7.87, height: 3.94, weight: 52.9 },
      options: { label_format: 'PDF', label_size: '4x6' },
      to_address: { name: 'Grace Hopper', street1: '1 Compiler Road', city: 'Arlington', state: 'VA', zip: '22201', country: 'US' },
      from_address: { city: 'Reno', country: 'US' },
    });
    expect(ep.calls(new RegExp(`/v2/shipments/${shipment.id}/buy`))[0]!.body).toEqual({ rate: { id: shipment.selected_rate.id } });
    // The label is EasyPost's file, downloaded and kept: served by fos (the platform URL may expire).
    const doc = await call('GET', `/v1/ops/packages/${p.id}/label`);
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toContain('application/pdf');
    const original = Buffer.from(await (await fetch(shipment.postage_label.label_pdf_url)).arrayBuffer());
    expect(Buffer.compare(doc.rawPayload, original)).toBe(0);
    const combined = await call('GET', `/v1/ops/packages/${p.id}/label-with-packing-slip`);
    expect(combined.statusCode, combined.body).toBe(200);
    expect((await call('GET', `/v1/ops/packages/${p.id}/label`, undefined)).statusCode).toBe(200);
  });

  it('FASTEST picks the quickest service, a named service_id buys it through Shippo (ZPL)', async () => {
    const p = await newPackage();
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'FASTEST' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ carrier_integration_id: ids.ep, service_id: 'NextDayAir' });

    const q = await newPackage();
    const s = await call('POST', `/v1/ops/packages/${q.id}/label`, { service_id: 'usps_priority', label_format: 'ZPL' });
    expect(s.statusCode, s.body).toBe(200);
    const tx = sh.transactions.at(-1)!;
    expect(s.json()).toMatchObject({
      carrier_integration_id: ids.sh,
      carrier_integration_type: 'SHIPPO',
      service_id: 'usps_priority',
      shipping_label_tracking_code: tx.tracking_number,
    });
    expect(s.json().shipping_label).toMatchObject({
      price: 7.25,
      remote_id: tx.rate && [...sh.shipments.values()].find((x) => x.rates.some((r: any) => r.object_id === tx.rate)).object_id,
      label_url: `http://localhost:80/v1/ops/packages/${q.id}/label?format=zpl`,
    });
    const sent = sh.calls(/^\/transactions$/, 'POST').at(-1)!;
    expect(sent.headers.authorization).toBe(`ShippoToken ${sh.apiKey}`);
    expect(sent.body).toMatchObject({ rate: tx.rate, label_file_type: 'ZPLII', async: false });
    const claim = await t.db.prisma.labelPurchase.findFirstOrThrow({ where: { package_id: q.id } });
    expect(sent.body.metadata).toBe(claim.id);
    expect(claim).toMatchObject({ state: 'ATTACHED', active_package_id: null });
    const zpl = await call('GET', `/v1/ops/packages/${q.id}/label?format=zpl`);
    expect(zpl.statusCode).toBe(200);
    expect(zpl.body).toBe('^XA^FO50,50^FDSHIPPO ZPL^FS^XZ');
    expect((await call('GET', `/v1/ops/packages/${q.id}/label`)).statusCode).toBe(409); // bought as ZPL
  });

  it('a slow platform is cut off by the timeout and a failing one is reported, the others still quote', async () => {
    const slow = await easypostDouble();
    const broken = await shippoDouble();
    const held = slow.hold(/^\/v2\/shipments$/);
    broken.fail(/^\/shipments$/, 500, { detail: 'Internal Server Error' });
    const mk = async (body: object) => (await t.call('POST', '/v1/ops/carrier-integrations', { body })).json().id as string;
    const slowId = await mk({
      name: 'Slow EasyPost',
      type: 'EASYPOST',
      api_base_url: `${slow.url}/v2`,
      credentials: { api_key: slow.apiKey },
    });
    const brokenId = await mk({ name: 'Broken Shippo', type: 'SHIPPO', api_base_url: broken.url, credentials: { api_key: broken.apiKey } });
    // The deadline applies to every platform: long enough that the answering doubles always make it
    // on a loaded machine (at 300 ms they sometimes did not), the held one never answers.
    process.env.FOS_CARRIER_RATE_TIMEOUT_MS = '2000';
    try {
      const p = await newPackage();
      const none = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST', service_id: 'no_such_service' });
      expect(none.statusCode, none.body).toBe(409);
      await held.arrived; // the slow platform was asked and never answered
      const data = none.json().rate_error_data;
      expect(Object.keys(data).sort()).toEqual(['available_rates', 'detailed_errors', 'message']);
      expect(data.detailed_errors).toEqual(
        expect.arrayContaining([
          { carrier_type: 'easypost', message: 'Slow EasyPost: no answer within 2000 ms (timed out).' },
          { carrier_type: 'shippo', message: expect.stringContaining('Broken Shippo: Shippo answered HTTP 500') },
        ]),
      );
      expect(data.available_rates.map((r: any) => `${r.carrier_integration_id}:${r.service_id}`).sort()).toEqual(
        [
          `${ids.ep}:GroundAdvantage`,
          `${ids.ep}:NextDayAir`,
          `${ids.sh}:dhl_express_worldwide`,
          `${ids.sh}:usps_priority`,
          `${ids.table}:home`,
        ].sort(),
      );
      for (const r of data.available_rates) {
        expect(Object.keys(r).sort()).toEqual([
          'amount',
          'carrier_id',
          'carrier_integration_id',
          'carrier_integration_type',
          'carrier_name',
          'currency',
          'delivery_date',
          'delivery_date_guaranteed',
          'estimated_days',
          'provider_rate_id',
          'service_id',
          'service_name',
        ]);
      }
      const stored = await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } });
      expect(stored.rate_error_data).toEqual(data);
      const bought = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
      expect(bought.statusCode, bought.body).toBe(200);
      expect(bought.json()).toMatchObject({ carrier_integration_id: ids.ep, rate_error_data: null });
    } finally {
      delete process.env.FOS_CARRIER_RATE_TIMEOUT_MS;
      await t.call('POST', `/v1/ops/carrier-integrations/${slowId}/disable`);
      await t.call('POST', `/v1/ops/carrier-integrations/${brokenId}/disable`);
      held.release();
      await Promise.all([slow.close(), broken.close()]);
    }
  });

  it('concurrent buys of one package buy once', async () => {
    const p = await newPackage();
    const before = ep.calls(/\/buy$/).length + sh.calls(/^\/transactions$/, 'POST').length;
    const results = await Promise.all([1, 2, 3].map(() => call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 409 || c === 503)).toBe(true);
    expect(ep.calls(/\/buy$/).length + sh.calls(/^\/transactions$/, 'POST').length).toBe(before + 1);
    expect(await t.db.prisma.labelPurchase.count({ where: { package_id: p.id, state: 'ATTACHED' } })).toBe(1);
    const again = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
    expect(again.statusCode).toBe(409);
  });

  it('a buyer that rated before another label was attached claims nothing and buys nothing', async () => {
    // The replica race: B rated while A still held the claim; A attached (freeing the claim),
    // then B's claim must see the label instead of buying a second one.
    const p = await newPackage();
    const up = await call('POST', `/v1/ops/packages/${p.id}/label`, {
      label_url: 'https://labels.example/y.pdf',
      tracking_number: 'UP124',
      carrier: 'UPS',
      service: 'Ground',
      cost: 5,
      cost_currency: 'USD',
    });
    expect(up.statusCode, up.body).toBe(200);
    const row = await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } });
    const rate = { provider_rate_id: 'rate_x', carrier_id: 'usps', service_id: 'Priority', price: 5, currency: 'USD', delivery_date: null };
    await expect(claimPurchase(t.db, row.fulfiller_team_id, p.id, { id: ids.ep } as never, rate as never, 'PDF', '')).rejects.toMatchObject(
      { kind: 'conflict' },
    );
    expect(await t.db.prisma.labelPurchase.count({ where: { package_id: p.id } })).toBe(0);
  });

  async function internationalPackage(contentsType = 'MERCHANDISE') {
    const p = await newPackage({
      name: 'Ada L',
      address1: '10 Downing St',
      city: 'London',
      zip: 'SW1A 2AA',
      country: 'GB',
      state: null,
      company: null,
      address2: null,
      phone: null,
    });
    await call('PATCH', `/v1/ops/packages/${p.id}`, {
      config: {
        customs_signer: 'Pat Packer',
        contents_type: contentsType,
        incoterm: 'DDU',
        non_delivery_option: 'RETURN',
        customs_certify: true,
        eel_pfc: 'NOEEI 30.37(a)',
      },
    });
    await t.db.prisma.packageLineItem.updateMany({
      where: { package_id: p.id },
      data: {
        customs_value: 12.5,
        customs_description: 'Cotton T-shirt',
        hs_code: '6109.10',
        country_of_origin: 'US',
        weight: 200,
        weight_unit: 'G',
      },
    });
    return p;
  }

  it('an international package sends customs info and keeps the commercial invoice', async () => {
    const p = await internationalPackage();
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { carrier_id: 'usps', service_id: 'GroundAdvantage' });
    expect(res.statusCode, res.body).toBe(200);
    const created = ep.calls(/^\/v2\/shipments$/, 'POST').find((r) => r.body.shipment.reference === p.id)!;
    expect(created.body.shipment.customs_info).toMatchObject({
      customs_signer: 'Pat Packer',
      contents_type: 'merchandise',
      customs_certify: true,
      non_delivery_option: 'return',
      restriction_type: 'none',
      eel_pfc: 'NOEEI 30.37(a)',
      customs_items: [
        {
          description: 'Cotton T-shirt',
          quantity: 1,
          value: 12.5,
          currency: 'USD',
          hs_tariff_number: '6109.10',
          origin_country: 'US',
          weight: 7.1,
        },
      ],
    });
    expect(created.body.shipment.options).toEqual({ label_format: 'PDF', label_size: '4x6', incoterm: 'DDU' });
    const docs = await t.db.prisma.carrierDocument.findMany({ where: { package_id: p.id }, orderBy: { kind: 'asc' } });
    expect(docs.map((d) => d.kind)).toEqual(['COMMERCIAL_INVOICE', 'LABEL']);
    expect(Buffer.from(docs[0]!.bytes).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("Shippo's RETURN_MERCHANDISE reaches EasyPost as its returned_goods", async () => {
    const p = await internationalPackage('RETURN_MERCHANDISE');
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { carrier_id: 'usps', service_id: 'GroundAdvantage' });
    expect(res.statusCode, res.body).toBe(200);
    const created = ep.calls(/^\/v2\/shipments$/, 'POST').find((r) => r.body.shipment.reference === p.id)!;
    expect(created.body.shipment.customs_info.contents_type).toBe('returned_goods');
  });

  it('an international package bought through Shippo sends a customs declaration and keeps its invoice', async () => {
    const p = await internationalPackage();
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { service_id: 'dhl_express_worldwide' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ carrier_integration_id: ids.sh });
    const declaration = (id: string) => sh.calls(/^\/shipments$/, 'POST').find((c) => c.body.metadata === id)!.body.customs_declaration;
    expect(declaration(p.id)).toMatchObject({
      contents_type: 'MERCHANDISE',
      certify: true,
      certify_signer: 'Pat Packer',
      non_delivery_option: 'RETURN',
      eel_pfc: 'NOEEI_30_37_a', // Shippo's code for the config's "NOEEI 30.37(a)"
      incoterm: 'DDU',
      items: [
        {
          description: 'Cotton T-shirt',
          quantity: 1,
          net_weight: '200',
          mass_unit: 'g',
          value_amount: '12.5',
          value_currency: 'USD',
          origin_country: 'US',
          tariff_number: '6109.10',
        },
      ],
    });
    const docs = await t.db.prisma.carrierDocument.findMany({ where: { package_id: p.id }, orderBy: { kind: 'asc' } });
    expect(docs.map((d) => d.kind)).toEqual(['COMMERCIAL_INVOICE', 'LABEL']);
    expect(Buffer.from(docs[0]!.bytes).subarray(0, 5).toString()).toBe('%PDF-');

    // The spec's default incoterm (FAS) is not one of Shippo's: left out; an AES filing sends its ITN.
    const q = await internationalPackage();
    await call('PATCH', `/v1/ops/packages/${q.id}`, { config: { incoterm: 'FAS', eel_pfc: 'AES X20261125123456' } });
    const aes = await call('POST', `/v1/ops/packages/${q.id}/label`, { service_id: 'dhl_express_worldwide' });
    expect(aes.statusCode, aes.body).toBe(200);
    const declared = declaration(q.id);
    expect(declared).toMatchObject({ eel_pfc: 'AES_ITN', aes_itn: 'X20261125123456' });
    expect(declared).not.toHaveProperty('incoterm');

    // A form Shippo has no code for: Shippo's quote fails with a message naming the forms it takes.
    const r = await internationalPackage();
    await call('PATCH', `/v1/ops/packages/${r.id}`, { config: { eel_pfc: 'exempt' } });
    const refused = await call('POST', `/v1/ops/packages/${r.id}/label`, { service_id: 'dhl_express_worldwide' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().rate_error_data.detailed_errors).toContainEqual({
      carrier_type: 'shippo',
      message: expect.stringContaining('Shippo cannot take eel_pfc "exempt": use NOEEI 30.37(a)'),
    });
  });

  it('a label sold while the package was labelled another way is refunded at the platform, not retried forever', async () => {
    const p = await newPackage();
    const held = ep.hold(/^\/files\//);
    const buying = call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
    await held.arrived; // EasyPost sold it; fos is downloading the label file
    const upload = await call('POST', `/v1/ops/packages/${p.id}/label`, {
      label_url: 'https://labels.example/x.pdf',
      tracking_number: 'UP123',
      carrier: 'UPS',
      service: 'Ground',
      cost: 5,
      cost_currency: 'USD',
    });
    expect(upload.statusCode, upload.body).toBe(200);
    held.release();
    // The cut download is a read, sent again by the outbound layer: the sold label arrives, finds
    // the package labelled, and is refunded at once (or, when even the retry fails, by recovery).
    expect([409, 503]).toContain((await buying).statusCode);
    const sold = [...ep.shipments.values()].find((s) => s.reference === p.id && s.postage_label)!;
    await recoverPurchases(t.db, { allowPrivate: true });
    expect(ep.calls(new RegExp(`/v2/shipments/${sold.id}/refund`), 'POST')).toHaveLength(1);
    expect(await t.db.prisma.labelPurchase.findFirstOrThrow({ where: { package_id: p.id } })).toMatchObject({
      state: 'ABANDONED',
      active_package_id: null,
    });
    expect((await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } })).tracking_code).toBe('UP123');
    await recoverPurchases(t.db, { allowPrivate: true });
    expect(ep.calls(new RegExp(`/v2/shipments/${sold.id}/refund`), 'POST')).toHaveLength(1);
  });

  it('an integration is asked only for its warehouses, and quotes only its enabled carriers', async () => {
    const [elsewhere, uspsOnly] = await Promise.all([easypostDouble(), easypostDouble()]);
    const other = (await createWarehouse(t.db, { team_id: t.teamId, name: 'Other warehouse' })).id;
    const mk = async (body: object) => {
      const r = await t.call('POST', '/v1/ops/carrier-integrations', { body });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as string;
    };
    const scoped = await mk({
      name: 'Elsewhere',
      type: 'EASYPOST',
      api_base_url: `${elsewhere.url}/v2`,
      credentials: { api_key: elsewhere.apiKey },
      warehouse_ids: [other],
    });
    const usps = await mk({
      name: 'USPS only',
      type: 'EASYPOST',
      api_base_url: `${uspsOnly.url}/v2`,
      credentials: { api_key: uspsOnly.apiKey },
      enabled_carriers: ['usps'],
    });
    try {
      const p = await newPackage();
      const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST', service_id: 'no_such_service' });
      expect(res.statusCode, res.body).toBe(409);
      const rates = res.json().rate_error_data.available_rates as any[];
      expect(elsewhere.calls(/^\/v2\/shipments$/)).toHaveLength(0);
      expect(rates.some((r) => r.carrier_integration_id === scoped)).toBe(false);
      expect(uspsOnly.calls(/^\/v2\/shipments$/, 'POST')).toHaveLength(1);
      expect(rates.filter((r) => r.carrier_integration_id === usps).map((r) => `${r.carrier_id}:${r.service_id}`)).toEqual([
        'usps:GroundAdvantage',
      ]);
    } finally {
      await t.call('POST', `/v1/ops/carrier-integrations/${scoped}/disable`);
      await t.call('POST', `/v1/ops/carrier-integrations/${usps}/disable`);
      await Promise.all([elsewhere.close(), uspsOnly.close()]);
    }
  });
});
