import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { convertedOrder } from '../helpers/fixtures.js';

// The spec's fulfillment workflow (4.6, steps 1a-6) with the spec's own request bodies, on an
// order made by the orders area (draft -> convert: inventory committed, one PENDING
// fulfillment order). The spec starts from an accepted fulfillment order (lock needs ACCEPTED
// or IN_PROGRESS), so the fulfiller accepts it first.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

describe('fulfillment workflow 1a-6', () => {
  it('locks, packs, labels and fulfills an order end to end', async () => {
    const { order: created, warehouseId } = await convertedOrder(t, token, [
      { sku: 'WF-MUG', quantity: 2, onHand: 10 },
      { sku: 'WF-TEE', quantity: 1, onHand: 4 },
    ]);
    const products = await t.db.prisma.product.findMany({ where: { sku: { in: ['WF-MUG', 'WF-TEE'] } } });
    const levelsBefore = await t.db.prisma.inventoryLevel.findMany({
      where: { warehouse_id: warehouseId, product_id: { in: products.map((p) => p.id) } },
    });
    expect(levelsBefore.map((l) => l.committed).sort()).toEqual([1, 2]); // conversion committed the units

    // 1a. GET /v1/ops/orders/{order_id}
    const s1a = await call('GET', `/v1/ops/orders/${created.id}`);
    expect(s1a.statusCode).toBe(200);
    expect(s1a.json()).toMatchObject({ id: created.id, status: 'OPEN', fulfillment_status: 'UNFULFILLED' });

    // 1b. GET /v1/ops/fulfillment-orders?order_id=…
    const s1b = await call('GET', `/v1/ops/fulfillment-orders?order_id=${created.id}`);
    expect(s1b.statusCode).toBe(200);
    expect(s1b.json().meta).toMatchObject({ page: 0, page_size: 20, total: 1 });
    const foId: string = s1b.json().data[0].id;
    expect(s1b.json().data[0]).toMatchObject({ order_id: created.id, status: 'PENDING' });
    expect(foId).not.toBe(created.id);

    expect((await call('POST', `/v1/ops/fulfillment-orders/${foId}/accept`)).json()).toMatchObject({
      status: 'ACCEPTED',
      request_status: 'ACCEPTED',
    });

    // 2. lock
    const s2 = await call('POST', `/v1/ops/fulfillment-orders/${foId}/lock`, { lock_owner: 'station-7', timeout_minutes: 30 });
    expect(s2.statusCode).toBe(200);
    expect(s2.json()).toMatchObject({ success: true, lock_owner: 'station-7' });
    expect(Date.parse(s2.json().expires_at)).toBeGreaterThan(Date.now() + 29 * 60_000);

    // 3. GET the fulfillment order: line items, shipping address, status
    const s3 = await call('GET', `/v1/ops/fulfillment-orders/${foId}`);
    expect(s3.statusCode).toBe(200);
    const fo = s3.json();
    expect(fo).toMatchObject({
      status: 'IN_PROGRESS',
      request_status: 'ACCEPTED',
      lock: { lock_owner: 'station-7' },
      shipping_address_name: 'Grace Hopper',
      shipping_address_city: 'Arlington',
      shipping_address_zip: '22201',
    });
    expect(fo.line_items.map((l: any) => [l.sku, l.quantity, l.remaining_quantity]).sort()).toEqual([
      ['WF-MUG', 2, 2],
      ['WF-TEE', 1, 1],
    ]);

    // 4. POST /v1/ops/packages with the spec's create body
    const s4 = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: foId,
      name: 'Package 1',
      weight: 950,
      weight_unit: 'G',
      length: 250,
      width: 180,
      height: 120,
      measurement_unit: 'MM',
      rate_strategy: 'CHEAPEST',
      carton_id: 'carton-small',
      package_line_items: fo.line_items.map((l: any) => ({ sku: l.sku, quantity: l.quantity, product_id: l.product_id })),
    });
    expect(s4.statusCode, s4.body).toBe(201);
    const pkg = s4.json();
    expect(pkg).toMatchObject({ status: 'PENDING', tracking_number: null, fulfillment_order_id: foId, total_item_quantity: 3 });

    // 5. POST label (upload of an externally generated label)
    const s5 = await call('POST', `/v1/ops/packages/${pkg.id}/label`, {
      label_url: 'https://labels.example.com/1Z4F9W120398765432.pdf',
      tracking_number: '1Z4F9W120398765432',
      carrier: 'UPS',
      service: 'Ground',
      cost: 9.87,
      cost_currency: 'USD',
    });
    expect(s5.statusCode, s5.body).toBe(200);
    expect(s5.json()).toMatchObject({ tracking_number: '1Z4F9W120398765432', shipment_status: 'LABEL_PRINTED' });

    // 6. POST fulfill { locked_by }
    const s6 = await call('POST', `/v1/ops/packages/${pkg.id}/fulfill`, { locked_by: 'station-7' });
    expect(s6.statusCode, s6.body).toBe(200);
    expect(s6.json()).toMatchObject({
      status: 'FULFILLED',
      fulfillment: { tracking_code: '1Z4F9W120398765432' },
      fulfillment_order: { id: foId, status: 'FULFILLED' },
    });

    // Afterwards: order fulfilled, nothing remains, stock shipped, tracking queued, lock released.
    const order = (await call('GET', `/v1/ops/orders/${created.id}`)).json();
    expect(order.fulfillment_status).toBe('FULFILLED');
    expect(order.fulfillment_count).toBe(1);
    expect(order.core_order_line_items.map((l: any) => l.remaining_quantity)).toEqual([0, 0]);
    const foAfter = (await call('GET', `/v1/ops/fulfillment-orders/${foId}`)).json();
    expect(foAfter).toMatchObject({ status: 'FULFILLED', lock: null, remaining_quantity: 0, fulfillment_status: 'FULFILLED' });
    const levels = await t.db.prisma.inventoryLevel.findMany({
      where: { warehouse_id: warehouseId, product_id: { in: products.map((p) => p.id) } },
    });
    const bySku = (sku: string) => levels.find((l) => l.product_id === products.find((p) => p.sku === sku)!.id)!;
    expect(bySku('WF-MUG')).toMatchObject({ on_hand: 8, committed: 0 });
    expect(bySku('WF-TEE')).toMatchObject({ on_hand: 3, committed: 0 });
    const pushes = (await t.db.prisma.outboxEvent.findMany({ where: { kind: 'tracking.push' } })).filter(
      (e) => (e.payload as any).order?.id === created.id,
    );
    expect(pushes).toHaveLength(1);
    expect(pushes[0].payload).toMatchObject({ tracking: { tracking_code: '1Z4F9W120398765432', carrier: 'UPS' } });
    const row = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: foId } });
    expect(row).toMatchObject({ lock_owner: null, lock_expires_at: null });
  });
});
