import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/domain/teams/teams.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { decodeCode128, parsePdf } from '../helpers/pdf.js';

// The printable label of a bought label (GET /v1/ops/packages/{id}/label, its label_url): the PDF
// is parsed back (page size, text) and its barcode image is decoded with ZXing, a real Code 128
// reader, so the tracking number scans.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  const rate = await call('POST', '/v1/ops/carrier-rates', {
    carrier_id: 'ups',
    carrier_name: 'UPS',
    service_id: 'ground',
    service_name: 'Ground',
    amount: 5,
    per_unit_weight: 0.001,
    weight_unit: 'G',
    estimated_days: 3,
  });
  expect(rate.statusCode, rate.body).toBe(201);
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown, key = token) =>
  t.call(method, url, { token: key, ...(body !== undefined ? { body } : {}) });

async function labelled(body: Record<string, unknown> = { rate_strategy: 'CHEAPEST' }) {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    name: 'Box 7',
    weight: 1500,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  const l = await call('POST', `/v1/ops/packages/${p.json().id}/label`, body);
  expect(l.statusCode, l.body).toBe(200);
  return { f, pkg: l.json() };
}

describe('printable shipping label', () => {
  it("a bought label's label_url serves a 4x6 PDF: service, addresses, weight, reference and a Code 128 that scans", async () => {
    const { f, pkg } = await labelled();
    const url: string = pkg.shipping_label_url;
    expect(url).toMatch(new RegExp(`^https?://[^/]+/v1/ops/packages/${pkg.id}/label$`));
    const res = await call('GET', new URL(url).pathname);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { doc, text, image } = await parsePdf(res.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    const tracking: string = pkg.shipping_label_tracking_code;
    expect(text).toContain('UPS Ground');
    // The built-in rate-table carrier sold it: it says plainly that no carrier takes it.
    expect(
      text.startsWith(
        'TEST LABEL - NOT VALID FOR SHIPPING\nMade by the built-in rate-table carrier:\nno carrier will accept or deliver it.\n',
      ),
    ).toBe(true);
    expect(text).toContain('SHIP TO');
    expect(text).toContain(`TRACKING # ${tracking}`);
    expect(text).toContain('Weight: 1500 G');
    expect(text).toContain(`Ref: ${f.order.order_number} · Box 7`.replace('·', '\u00b7'));
    expect(image).toBeDefined();
    expect(decodeCode128(image!)).toBe(tracking);
  });

  it('every package has a packing_slip_url; a bought label has label_with_packing_slip_url: the label page, then the slip', async () => {
    const { f, pkg } = await labelled({ rate_strategy: 'CHEAPEST', label_format: 'ZPL' });
    expect(pkg.packing_slip_url).toMatch(new RegExp(`^https?://[^/]+/v1/ops/packages/${pkg.id}/packing-slip$`));
    const slip = await call('GET', new URL(pkg.packing_slip_url).pathname);
    expect(slip.statusCode, slip.body).toBe(200);
    expect((await parsePdf(slip.rawPayload)).text).toContain(`Order ${f.order.order_number}`);

    const url: string = pkg.shipping_label.label_with_packing_slip_url;
    expect(url).toMatch(new RegExp(`^https?://[^/]+/v1/ops/packages/${pkg.id}/label-with-packing-slip$`));
    const res = await call('GET', new URL(url).pathname);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { doc, text, images } = await parsePdf(res.rawPayload);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    expect(doc.getPage(1).getSize()).toEqual({ width: 612, height: 792 });
    expect(text).toContain(`TRACKING # ${pkg.shipping_label_tracking_code}`);
    expect(text).toContain('Packing slip');
    expect(text).toContain(`${f.foLines[0].sku}\n${f.foLines[0].name}\n1\n1\n0\n`); // SKU, description, ordered, shipped, remaining
    // Two barcodes: the label's tracking number and the slip's order number.
    expect(images.map(decodeCode128).sort()).toEqual([pkg.shipping_label_tracking_code, f.order.order_number].sort());

    const voided = await call('POST', `/v1/ops/packages/${pkg.id}/label/void`);
    expect(voided.statusCode, voided.body).toBe(200);
    expect((await call('GET', `/v1/ops/packages/${pkg.id}/label-with-packing-slip`)).statusCode).toBe(404);
  });

  it('ZPL for thermal printers: ?format=zpl, or label_format ZPL makes it the label_url', async () => {
    const { pkg } = await labelled({ rate_strategy: 'CHEAPEST', label_format: 'ZPL' });
    expect(pkg.shipping_label_url).toMatch(/\/label\?format=zpl$/);
    const res = await call('GET', `/v1/ops/packages/${pkg.id}/label?format=zpl`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-zpl/);
    expect(res.body).toMatch(/^\^XA\n/);
    expect(res.body).toContain(`^BCN,180,N,N,N^FD${pkg.shipping_label_tracking_code}^FS`);
    expect(res.body.trimEnd().endsWith('^XZ')).toBe(true);
  });

  it('a warehouse whose default is ZPL gets ZPL labels unless the request asks for PDF', async () => {
    const { setWarehouseLabelFormat } = await import('../../src/domain/teams/teams.js');
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    await setWarehouseLabelFormat(t.db, f.fo.warehouse_id, 'zpl');
    try {
      const made = async () =>
        (
          await call('POST', '/v1/ops/packages', {
            fulfillment_order_id: f.fo.id,
            weight: 100,
            weight_unit: 'G',
            package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
          })
        ).json().id as string;
      const zpl = (await call('POST', `/v1/ops/packages/${await made()}/label`, { rate_strategy: 'CHEAPEST' })).json();
      expect(zpl.shipping_label_url).toMatch(/\/label\?format=zpl$/);
      const pdf = (await call('POST', `/v1/ops/packages/${await made()}/label`, { rate_strategy: 'CHEAPEST', label_format: 'PDF' })).json();
      expect(pdf.shipping_label_url).toMatch(/\/label$/);
      await expect(setWarehouseLabelFormat(t.db, f.fo.warehouse_id, 'EPL')).rejects.toThrow(/PDF, ZPL/);
    } finally {
      await setWarehouseLabelFormat(t.db, f.fo.warehouse_id, 'PDF');
    }
  });

  it('404 without a label or for another team, 409 for an uploaded label, 400 for an unknown format', async () => {
    const { pkg } = await labelled();
    const other = await t.key({ teamId: (await createTeam(t.db, { name: 'Elsewhere', kind: 'FULFILLER' })).id, tier: 4 });
    expect((await call('GET', `/v1/ops/packages/${pkg.id}/label`, undefined, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/v1/ops/packages/${pkg.id}/label?format=png`)).statusCode).toBe(400);
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const p = (
      await call('POST', '/v1/ops/packages', {
        fulfillment_order_id: f.fo.id,
        package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
      })
    ).json();
    expect((await call('GET', `/v1/ops/packages/${p.id}/label`)).statusCode).toBe(404);
    const up = await call('POST', `/v1/ops/packages/${p.id}/label`, {
      label_url: 'https://labels.example/x.pdf',
      tracking_number: '1Z9',
      carrier: 'UPS',
      service: 'Ground',
      cost: 1,
      cost_currency: 'USD',
    });
    expect(up.json().shipping_label_url).toBe('https://labels.example/x.pdf');
    expect(up.json().shipping_label.label_with_packing_slip_url).toBeNull();
    expect((await call('GET', `/v1/ops/packages/${p.id}/label-with-packing-slip`)).statusCode).toBe(409);
    const uploaded = await call('GET', `/v1/ops/packages/${p.id}/label`);
    expect(uploaded.statusCode).toBe(409);
    expect(uploaded.json().detail).toContain('uploaded label');
  });
});
