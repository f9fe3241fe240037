import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';

// Labels (spec 4.6 step 5): upload, rate shopping through the 'table' carrier adapter, and the
// carrier rate table that prices it.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function newPackage(extra: Record<string, unknown> = {}, shippingAddress?: Record<string, string | null>) {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED', shippingAddress });
  const res = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    name: 'Box',
    weight: 1500,
    weight_unit: 'G',
    length: 300,
    width: 200,
    height: 100,
    measurement_unit: 'MM',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const upload = {
  label_url: 'https://labels.example/1Z999AA10123456784.pdf',
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  service: 'Ground',
  cost: 8.45,
  cost_currency: 'USD',
};

describe('label upload', () => {
  it('attaches an uploaded label and fills the package label summary', async () => {
    const p = await newPackage();
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, upload);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: p.id,
      status: 'PENDING',
      shipment_status: 'LABEL_PRINTED',
      tracking_number: upload.tracking_number,
      shipping_label_tracking_code: upload.tracking_number,
      shipping_label_tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      shipping_label_formatted_service: 'UPS Ground',
      shipping_label_url: upload.label_url,
      carrier_id: 'ups',
      service_id: 'ground',
      formatted_service: 'UPS Ground',
      carrier_integration_type: 'GENERIC',
    });
    expect(body.shipping_label).toMatchObject({
      tracking_code: upload.tracking_number,
      label_url: upload.label_url,
      shipment_status: 'LABEL_PRINTED',
      price: 8.45,
      currency: 'USD',
      formatted_service: 'UPS Ground',
      to_address_name: 'Grace Hopper',
      to_address_street1: '1 Compiler Road',
      from_address_city: 'Reno',
      refund_status: null,
      scan_status: null,
    });
    expect(body.shipping_label_id).toBe(body.shipping_label.id);
    expect(await t.db.prisma.shippingLabel.count({ where: { package_id: p.id } })).toBe(1);
    expect(await t.db.prisma.outboxEvent.count({ where: { kind: 'package.labelled' } })).toBeGreaterThan(0);
  });

  it('refuses relabelling, labelling a fulfilled package and incomplete uploads', async () => {
    const p = await newPackage();
    expect((await call('POST', `/v1/ops/packages/${p.id}/label`, upload)).statusCode).toBe(200);
    const again = await call('POST', `/v1/ops/packages/${p.id}/label`, { ...upload, tracking_number: 'OTHER' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain('already has a shipping label');
    expect((await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } })).tracking_code).toBe(upload.tracking_number);

    const q = await newPackage();
    await t.db.prisma.package.update({ where: { id: q.id }, data: { status: 'FULFILLED' } });
    expect((await call('POST', `/v1/ops/packages/${q.id}/label`, upload)).statusCode).toBe(409);

    const r = await newPackage();
    const partial = await call('POST', `/v1/ops/packages/${r.id}/label`, { label_url: upload.label_url, tracking_number: 'X' });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().errors.map((e: any) => e.path)).toEqual(['body.carrier', 'body.service', 'body.cost', 'body.cost_currency']);
    const mixed = await call('POST', `/v1/ops/packages/${r.id}/label`, { ...upload, rate_strategy: 'CHEAPEST' });
    expect(mixed.statusCode).toBe(400);
    const none = await call('POST', `/v1/ops/packages/${r.id}/label`, {});
    expect(none.statusCode).toBe(400); // the package has no rate_strategy
    expect(await t.db.prisma.shippingLabel.count({ where: { package_id: r.id } })).toBe(0);
  });

  // An upload goes straight to the compare-and-set; when it matches nothing the answer is read then.
  it("answers 404 for an unknown package and for another team's, writing nothing", async () => {
    expect((await call('POST', '/v1/ops/packages/01990000-0000-7000-8000-00000000000e/label', upload)).statusCode).toBe(404);
    const p = await newPackage();
    const otherTeam = await t.db.prisma.team.create({ data: { name: 'Elsewhere', kind: 'FULFILLER' } });
    const other = await t.key({ teamId: otherTeam.id });
    expect((await t.call('POST', `/v1/ops/packages/${p.id}/label`, { token: other.token, body: upload })).statusCode).toBe(404);
    expect(await t.db.prisma.shippingLabel.count({ where: { package_id: p.id } })).toBe(0);
    expect((await t.db.prisma.package.findUniqueOrThrow({ where: { id: p.id } })).shipment_status).toBeNull();
  });
});

describe('carrier rates and rate shopping', () => {
  it('manages the rate table', async () => {
    const created = await call('POST', '/v1/ops/carrier-rates', {
      carrier_id: 'dhl',
      carrier_name: 'DHL',
      service_id: 'express',
      service_name: 'Express',
      amount: 30,
      countries: ['de', 'FR'],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      currency: 'USD',
      per_unit_weight: 0,
      max_weight: null,
      weight_unit: 'G',
      countries: ['DE', 'FR'],
    });
    const list = (await call('GET', '/v1/ops/carrier-rates')).json();
    expect(list.data.map((r: any) => r.id)).toContain(created.json().id);
    expect((await call('DELETE', `/v1/ops/carrier-rates/${created.json().id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/v1/ops/carrier-rates/${created.json().id}`)).statusCode).toBe(404);
    expect(
      (await call('POST', '/v1/ops/carrier-rates', { carrier_id: 'x', carrier_name: 'X', service_id: 's', service_name: 'S', amount: -1 }))
        .statusCode,
    ).toBe(400);
  });

  it('answers 409 with rate_error_data when nothing can ship, stores it, and clears it once labelled', async () => {
    const p = await newPackage({ rate_strategy: 'CHEAPEST' });
    const none = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
    expect(none.statusCode).toBe(409);
    expect(none.json().rate_error_data).toMatchObject({ message: 'No carrier service can ship this package.', available_rates: [] });
    expect(none.json().rate_error_data.detailed_errors[0]).toMatchObject({ carrier_type: 'table' });

    const tiny = (
      await call('POST', '/v1/ops/carrier-rates', {
        carrier_id: 'usps',
        carrier_name: 'USPS',
        service_id: 'first_class',
        service_name: 'First-Class',
        amount: 3,
        max_weight: 450,
      })
    ).json();
    const abroad = (
      await call('POST', '/v1/ops/carrier-rates', {
        carrier_id: 'canada_post',
        carrier_name: 'Canada Post',
        service_id: 'regular',
        service_name: 'Regular',
        amount: 4,
        countries: ['CA'],
      })
    ).json();
    const refused = await call('POST', `/v1/ops/packages/${p.id}/label`, {});
    expect(refused.statusCode).toBe(409);
    const errors = refused
      .json()
      .rate_error_data.detailed_errors.map((e: any) => e.message)
      .join(' | ');
    expect(errors).toContain('USPS First-Class: 1500 G is above its maximum of 450 G');
    expect(errors).toContain('Canada Post Regular: does not ship to US');
    const stored = (await call('GET', `/v1/ops/packages/${p.id}`)).json();
    expect(stored.rate_error_data.detailed_errors).toHaveLength(2);
    expect(stored.error_message).toBe('No carrier service can ship this package.');

    await call('POST', '/v1/ops/carrier-rates', {
      carrier_id: 'ups',
      carrier_name: 'UPS',
      service_id: 'ground',
      service_name: 'Ground',
      amount: 5,
      per_unit_weight: 0.002,
      estimated_days: 4,
    });
    await call('POST', '/v1/ops/carrier-rates', {
      carrier_id: 'fedex',
      carrier_name: 'FedEx',
      service_id: 'home',
      service_name: 'Home Delivery',
      amount: 6,
      weight_unit: 'LB',
      per_unit_weight: 0.5,
    });
    // UPS: 5 + 0.002 * 1500 = 8.00; FedEx: 6 + 0.5 * 3.306934 LB = 7.65 -> FedEx is cheapest.
    const bought = await call('POST', `/v1/ops/packages/${p.id}/label`, {});
    expect(bought.statusCode, bought.body).toBe(200);
    const b = bought.json();
    expect(b).toMatchObject({
      shipment_status: 'LABEL_PRINTED',
      carrier_id: 'fedex',
      service_id: 'home',
      formatted_service: 'FedEx Home Delivery',
      carrier_integration_id: 'table',
      carrier_integration_name: 'Rate table (test carrier)',
      carrier_integration_type: 'TABLE',
      rate_error_data: null,
      error_message: null,
    });
    expect(b.shipping_label.price).toBe(7.65);
    expect(b.tracking_number).toMatch(/^FED\d{16}$/);
    expect(b.shipping_label_tracking_url).toContain('fedex.com');
    // the printable label is this server's document (test/api/shipping-label-doc.test.ts)
    expect(b.shipping_label_url).toMatch(new RegExp(`/v1/ops/packages/${b.id}/label$`));
    expect((await call('GET', `/v1/ops/packages/${b.id}/label?format=zpl`)).body).toContain(`^FD${b.tracking_number}^FS`);
    expect(b.provider_rate_id).toBeTruthy();
    expect(b.shipping_label.carrier_platform_rate_id).toBe(b.provider_rate_id);
    expect(tiny.id && abroad.id).toBeTruthy();
  });

  it('buys a named service, or explains with available_rates', async () => {
    const p = await newPackage(
      {},
      { name: 'Jean Tremblay', address1: '1 Rue Sainte-Catherine', city: 'Montreal', state: 'QC', country: 'CA', zip: 'H2X 1Z4' },
    );
    const missing = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST', service_id: 'teleport' });
    expect(missing.statusCode).toBe(409);
    const rates = missing.json().rate_error_data.available_rates;
    expect(rates.map((r: any) => r.service_id).sort()).toEqual(['ground', 'home', 'regular']);
    expect(rates.find((r: any) => r.service_id === 'regular')).toMatchObject({
      amount: 4,
      carrier_name: 'Canada Post',
      carrier_integration_id: 'table',
    });
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, {
      rate_strategy: 'CHEAPEST',
      carrier_id: 'ups',
      service_id: 'ground',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ carrier_id: 'ups', service_id: 'ground', shipping_label: { price: 8 } });
    expect(res.json().shipping_label.delivery_days).toBe(4);
  });
});
