import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/domain/teams/teams.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fixtureWarehouse, fulfillmentFixture } from '../helpers/fixtures.js';
import { decodeCode128, parsePdf } from '../helpers/pdf.js';

// Scan forms (end-of-day manifests): which packages a form gathers, what it marks on them, the
// manifest PDF (text and a Code 128 of the form id that decodes), the refusals, and races — a
// void against a scan form, and two scan forms for the same packages — where exactly one wins.

let t: TestApp;
let token: string;
let warehouse: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  warehouse = await fixtureWarehouse(t);
  for (const [carrier, name] of [
    ['ups', 'UPS'],
    ['fedex', 'FedEx'],
  ]) {
    const rate = await call('POST', '/v1/ops/carrier-rates', {
      carrier_id: carrier,
      carrier_name: name,
      service_id: 'ground',
      service_name: 'Ground',
      amount: 5,
      per_unit_weight: 0,
      weight_unit: 'G',
      estimated_days: 3,
    });
    expect(rate.statusCode, rate.body).toBe(201);
  }
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown, key = token) =>
  t.call(method, url, { token: key, ...(body !== undefined ? { body } : {}) });

/** A package at the fixture warehouse, labelled by `carrier` unless null. */
async function pkg(carrier: string | null = 'ups') {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    weight: 900,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  if (!carrier) return p.json();
  const l = await call('POST', `/v1/ops/packages/${p.json().id}/label`, { rate_strategy: 'CHEAPEST', carrier_id: carrier });
  expect(l.statusCode, l.body).toBe(200);
  return l.json();
}

/** Every scan form of the day is made from what is left: start each test from a clean slate. */
async function manifestEverything() {
  for (const carrier of ['ups', 'fedex']) await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: carrier });
}

describe('scan forms', () => {
  it("gathers the day's unvoided labels of one carrier at a warehouse, marks them, and prints a manifest", async () => {
    await manifestEverything();
    const a = await pkg('ups');
    const b = await pkg('ups');
    const fedex = await pkg('fedex');
    const unlabelled = await pkg(null);
    const voided = await pkg('ups');
    expect((await call('POST', `/v1/ops/packages/${voided.id}/label/void`)).statusCode).toBe(200);

    const res = await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups' });
    expect(res.statusCode, res.body).toBe(201);
    const form = res.json();
    expect(form).toMatchObject({
      scan_status: 'SCANNED',
      warehouse_id: warehouse,
      warehouse_name: 'Main Warehouse',
      carrier_id: 'ups',
      carrier_name: 'UPS',
      form_date: new Date().toISOString().slice(0, 10),
      package_count: 2,
      fulfiller_team_id: t.teamId,
    });
    expect(form.manifest_url).toMatch(new RegExp(`^https?://[^/]+/v1/ops/scan-forms/${form.id}/manifest$`));

    const on = await call('GET', `/v1/ops/packages?scan_form_id=${form.id}`);
    expect(
      on
        .json()
        .data.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    for (const p of on.json().data) {
      expect(p).toMatchObject({ scan_form_id: form.id, shipping_label: { scan_status: 'SCANNED' } });
      expect(p.manifested_at).not.toBeNull();
    }
    for (const other of [fedex, unlabelled, voided]) {
      expect((await call('GET', `/v1/ops/packages/${other.id}`)).json()).toMatchObject({ scan_form_id: null, manifested_at: null });
    }

    const pdf = await call('GET', new URL(form.manifest_url).pathname);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { doc, text, image } = await parsePdf(pdf.rawPayload);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    expect(text).toContain('SCAN FORM / MANIFEST');
    expect(text).toContain('Carrier: UPS');
    expect(text).toContain('Total packages: 2');
    expect(text).toContain(a.shipping_label_tracking_code);
    expect(text).toContain(b.shipping_label_tracking_code);
    expect(text).not.toContain(fedex.shipping_label_tracking_code);
    expect(decodeCode128(image!)).toBe(form.id);

    // Manifested: the carrier has it, so no void; nothing left for a second form.
    const void_ = await call('POST', `/v1/ops/packages/${a.id}/label/void`);
    expect(void_.statusCode).toBe(409);
    expect(void_.json().detail).toContain('scan form');
    const again = await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups' });
    expect(again.statusCode).toBe(409);

    expect((await call('GET', `/v1/ops/scan-forms/${form.id}`)).json()).toEqual(form);
    const list = await call('GET', '/v1/ops/scan-forms?carrier_id=ups');
    expect(list.json().data[0]).toEqual(form);
    expect((await call('GET', '/v1/ops/scan-forms?carrier_id=dhl')).json().data).toEqual([]);
  });

  it('package_ids narrows the form; one that does not qualify is a 409 naming it and takes nothing', async () => {
    await manifestEverything();
    const a = await pkg('ups');
    const b = await pkg('ups');
    const fedex = await pkg('fedex');
    const bad = await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups', package_ids: [a.id, fedex.id] });
    expect(bad.statusCode).toBe(409);
    expect(bad.json().package_ids).toEqual([fedex.id]);
    expect((await call('GET', `/v1/ops/packages/${a.id}`)).json().scan_form_id).toBeNull();
    const ok = await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups', package_ids: [a.id] });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().package_count).toBe(1);
    expect((await call('GET', `/v1/ops/packages/${b.id}`)).json().scan_form_id).toBeNull();
  });

  it('refuses bad input and other teams', async () => {
    for (const body of [
      { warehouse_id: warehouse },
      { warehouse_id: warehouse, carrier_id: 'ups', date: '2026-02-30' },
      { warehouse_id: warehouse, carrier_id: 'ups', extra: 1 },
      { warehouse_id: warehouse, carrier_id: 'ups', date: 'today' },
    ]) {
      const r = await call('POST', '/v1/ops/scan-forms', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.headers['content-type']).toContain('application/problem+json');
    }
    expect((await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups', date: '2020-01-01' })).statusCode).toBe(
      409,
    );
    expect(
      (await call('POST', '/v1/ops/scan-forms', { warehouse_id: '00000000-0000-7000-8000-000000000000', carrier_id: 'ups' })).statusCode,
    ).toBe(404);
    const other = await t.key({ teamId: (await createTeam(t.db, { name: 'Elsewhere', kind: 'FULFILLER' })).id, tier: 4 });
    expect((await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups' }, other.token)).statusCode).toBe(404);
    const mine = (await call('GET', '/v1/ops/scan-forms')).json().data[0];
    expect((await call('GET', `/v1/ops/scan-forms/${mine.id}`, undefined, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/v1/ops/scan-forms/${mine.id}/manifest`, undefined, other.token)).statusCode).toBe(404);
    const reader = await t.key({ permissions: ['READ_FULFILLMENTS'] });
    expect((await call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups' }, reader.token)).statusCode).toBe(403);
  });

  it('races: of a void and a scan form exactly one wins; two scan forms never share a package', async () => {
    for (let round = 0; round < 4; round++) {
      await manifestEverything();
      const p = await pkg('ups');
      const [v, s] = await Promise.all([
        call('POST', `/v1/ops/packages/${p.id}/label/void`),
        call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups' }),
      ]);
      expect([200, 409]).toContain(v.statusCode);
      expect([201, 409]).toContain(s.statusCode);
      expect(v.statusCode === 200, 'exactly one of the void and the scan form wins').not.toBe(s.statusCode === 201);
      const now = (await call('GET', `/v1/ops/packages/${p.id}`)).json();
      if (s.statusCode === 201)
        expect(now).toMatchObject({ scan_form_id: s.json().id, shipping_label: { voided_at: null, scan_status: 'SCANNED' } });
      else expect(now).toMatchObject({ scan_form_id: null, shipping_label: { refund_status: 'SUBMITTED' } });

      const ps = [await pkg('ups'), await pkg('ups'), await pkg('ups')];
      const forms = await Promise.all(
        [0, 1, 2].map(() => call('POST', '/v1/ops/scan-forms', { warehouse_id: warehouse, carrier_id: 'ups' })),
      );
      const made = forms.filter((f) => f.statusCode === 201);
      expect(forms.every((f) => [201, 409].includes(f.statusCode))).toBe(true);
      expect(made.reduce((n, f) => n + f.json().package_count, 0)).toBe(3);
      const owners = await Promise.all(ps.map(async (x) => (await call('GET', `/v1/ops/packages/${x.id}`)).json().scan_form_id));
      expect(owners.every((o) => made.some((f) => f.json().id === o))).toBe(true);
    }
  });
});
