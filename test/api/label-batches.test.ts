import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { runLabelBatch } from '../../src/domain/label-batches/run.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { fixtureWarehouse, fulfillmentFixture } from '../helpers/fixtures.js';
import { pdfText } from '../helpers/pdf.js';

// Label batches (docs/label-batches.md): many packages labelled by one request. Per-package
// outcomes (bought, failed with the reason, skipped when already labelled), one merged file in the
// batch's order, a runner stopped halfway (a crash) and resumed that labels every package exactly
// once, a carrier that refuses the purchase, and the refusals of bad requests.

let t: TestApp;
let ep: EasyPostDouble;
let token: string;
let warehouse: string;

beforeAll(async () => {
  [t, ep] = await Promise.all([testApp({ allowPrivateWebhooks: true }), easypostDouble()]);
  token = (await t.key({ tier: 4 })).token;
  warehouse = await fixtureWarehouse(t);
  const rate = await call('POST', '/v1/ops/carrier-rates', {
    carrier_id: 'ups',
    carrier_name: 'UPS',
    service_id: 'ground',
    service_name: 'Ground',
    amount: 5,
    per_unit_weight: 0,
    weight_unit: 'G',
    estimated_days: 3,
  });
  expect(rate.statusCode, rate.body).toBe(201);
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close()]);
});

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function pkg() {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED', warehouseId: warehouse });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    weight: 900,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  return { id: p.json().id as string, orderId: f.order.id as string, foId: f.fo.id as string };
}

async function settled(id: string) {
  await t.app.labelBatches.idle();
  const b = (await call('GET', `/v1/ops/label-batches/${id}`)).json();
  expect(b.status).toBe('COMPLETED');
  return b;
}

const labelRows = (ids: string[]) => t.db.prisma.shippingLabel.findMany({ where: { package_id: { in: ids } } });

describe('label batches', () => {
  it('labels each package once: bought, failed with the reason, skipped when labelled; one PDF in batch order', async () => {
    const pkgs = [];
    for (let i = 0; i < 7; i++) pkgs.push(await pkg());
    // One already labelled, one whose order is held: skipped and failed, never bought.
    expect((await call('POST', `/v1/ops/packages/${pkgs[2].id}/label`, { rate_strategy: 'CHEAPEST' })).statusCode).toBe(200);
    const hold = await call('POST', `/v1/ops/orders/${pkgs[4].orderId}/holds`, { reason: 'MANUAL', reason_notes: 'customer called' });
    expect(hold.statusCode, hold.body).toBe(201);

    const res = await call('POST', '/v1/ops/label-batches', { package_ids: pkgs.map((p) => p.id), rate_strategy: 'CHEAPEST' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: 'RUNNING', package_count: 7, label_format: 'PDF' });
    const b = await settled(res.json().id);
    expect(b).toMatchObject({ package_count: 7, pending: 0, bought: 5, failed: 1, skipped: 1 });
    expect(b.items.map((i: any) => [i.position, i.package_id, i.status])).toEqual(
      pkgs.map((p, i) => [i + 1, p.id, i === 2 ? 'SKIPPED' : i === 4 ? 'FAILED' : 'BOUGHT']),
    );
    expect(b.items[2].message).toMatch(/already has a label/);
    expect(b.items[4].message).toMatch(/hold/i);
    for (const i of b.items.filter((x: any) => x.status === 'BOUGHT')) {
      expect(i).toMatchObject({ carrier_id: 'ups', service_id: 'ground', cost: 5, cost_currency: 'USD' });
      expect(i.tracking_number).toBeTruthy();
    }
    expect(await labelRows(pkgs.map((p) => p.id))).toHaveLength(6);

    const file = await call('GET', `/v1/ops/label-batches/${b.id}/labels`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const doc = await PDFDocument.load(file.rawPayload);
    expect(doc.getPageCount()).toBe(5);
    const text = await pdfText(file.rawPayload);
    const at = b.items.filter((i: any) => i.status === 'BOUGHT').map((i: any) => text.indexOf(i.tracking_number));
    expect(at.every((x: number) => x >= 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);

    const csv = (await call('GET', `/v1/ops/label-batches/${b.id}/summary.csv`)).body.trim().split('\n');
    expect(csv[0]).toBe('position,package_id,status,tracking_number,carrier_id,service_id,cost,cost_currency,message');
    expect(csv).toHaveLength(8);
    expect(csv[5]).toMatch(new RegExp(`^5,${pkgs[4].id},FAILED,,`));

    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'label_batch.completed' } });
    expect(events.filter((e) => (e.payload as any).label_batch_id === b.id)).toHaveLength(1);
    // The audit log names the batch (and the request that made it is the batch's one record).
    const audit = (await t.call('GET', '/v1/audit-events', { token: t.adminToken, query: { action: 'createLabelBatch' } })).json();
    expect(audit.data.filter((e: any) => e.target?.id === b.id || e.target_id === b.id)).toHaveLength(1);
    expect(JSON.stringify(audit.data[0])).toContain('label_batch');
    const list = (await call('GET', '/v1/ops/label-batches?status=COMPLETED')).json();
    expect(list.data[0]).toMatchObject({ id: b.id, bought: 5, failed: 1, skipped: 1 });
  });

  it('a runner stopped halfway (a crash) is resumed by another: every package labelled exactly once', async () => {
    const pkgs = [];
    for (let i = 0; i < 10; i++) pkgs.push(await pkg());
    // Made without the route's kick: the batch waits for a runner, as after a crash before any work.
    const { createLabelBatch } = await import('../../src/domain/label-batches/create.js');
    const made = await createLabelBatch(t.db, { teamId: t.teamId, keyId: null }, { package_ids: pkgs.map((p) => p.id) }, 'http://x');
    expect(await runLabelBatch(t.db, made.id, { stopAfter: 4 })).toBe(false);
    // The stopped runner still holds the lease: nobody else takes the batch until it runs out.
    expect(await runLabelBatch(t.db, made.id)).toBeNull();
    await t.db.prisma.labelBatch.update({ where: { id: made.id }, data: { lease_until: new Date(Date.now() - 1) } });
    expect(await runLabelBatch(t.db, made.id)).toBe(true);
    const b = await settled(made.id);
    expect(b).toMatchObject({ bought: 10, failed: 0, skipped: 0 });
    const labels = await labelRows(pkgs.map((p) => p.id));
    expect(labels).toHaveLength(10);
    expect(new Set(labels.map((l) => l.package_id)).size).toBe(10);
    // A finished batch is never worked again.
    expect(await runLabelBatch(t.db, made.id)).toBeNull();
  });

  it('takes a picking session or fulfillment orders, and refuses bad requests', async () => {
    const a = await pkg();
    const byFo = await call('POST', '/v1/ops/label-batches', { fulfillment_order_ids: [a.foId], label_format: 'ZPL' });
    expect(byFo.statusCode, byFo.body).toBe(202);
    const b = await settled(byFo.json().id);
    expect(
      b.items.map((i: any) => [i.package_id, i.status]),
      JSON.stringify(b.items),
    ).toEqual([[a.id, 'BOUGHT']]);
    const zpl = await call('GET', `/v1/ops/label-batches/${b.id}/labels`);
    expect(zpl.headers['content-type']).toMatch(/^application\/x-zpl/);
    expect(zpl.body).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);

    const two = await call('POST', '/v1/ops/label-batches', { package_ids: [a.id], fulfillment_order_ids: [a.foId] });
    expect(two.statusCode).toBe(400);
    expect((await call('POST', '/v1/ops/label-batches', {})).statusCode).toBe(400);
    expect((await call('POST', '/v1/ops/label-batches', { package_ids: [a.id], extra: 1 })).statusCode).toBe(400);
    const unknown = await call('POST', '/v1/ops/label-batches', { package_ids: ['00000000-0000-7000-8000-000000000000'] });
    expect(unknown.statusCode).toBe(404);
    const none = await call('POST', '/v1/ops/label-batches', { picking_session_id: '00000000-0000-7000-8000-000000000000' });
    expect(none.statusCode).toBe(404);
    expect((await call('GET', '/v1/ops/label-batches/00000000-0000-7000-8000-000000000000')).statusCode).toBe(404);
    // A batch of shipped-or-labelled-only packages of fulfillment orders with none open: 409.
    const shipped = await call('POST', '/v1/ops/label-batches', { fulfillment_order_ids: ['00000000-0000-7000-8000-000000000001'] });
    expect(shipped.statusCode).toBe(409);
  });

  it("records a carrier's refusal as FAILED with its message (last: connecting EasyPost ends the implicit table)", async () => {
    const integration = await call('POST', '/v1/ops/carrier-integrations', {
      name: 'EasyPost',
      type: 'EASYPOST',
      api_base_url: `${ep.url}/v2`,
      credentials: { api_key: ep.apiKey, webhook_secret: 'ep-secret' },
    });
    expect(integration.statusCode, integration.body).toBe(201);
    ep.fail(/\/buy$/, 422, { error: { code: 'SHIPMENT.POSTAGE.FAILURE', message: 'Insufficient funds on the account', errors: [] } });
    const a = await pkg();
    const res = await call('POST', '/v1/ops/label-batches', { package_ids: [a.id], rate_strategy: 'CHEAPEST', carrier_id: 'usps' });
    expect(res.statusCode, res.body).toBe(202);
    const b = await settled(res.json().id);
    expect(b.items[0]).toMatchObject({ status: 'FAILED', tracking_number: null });
    expect(b.items[0].message).toMatch(/Insufficient funds/);
    expect(await labelRows([a.id])).toHaveLength(0);
  });
});
