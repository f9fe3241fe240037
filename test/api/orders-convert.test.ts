import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, line, world, type World } from './orders.fixtures.js';
import { assertNoActiveHold } from '../../src/domain/orders/holds.js';
import { DomainError } from '../../src/domain/errors.js';

let w: World;
const id: Record<string, string> = {};
beforeAll(async () => {
  w = await world();
  id.A = await w.product('A', { [w.east]: 5 });
  id.B = await w.product('B', { [w.west]: 3 });
  id.C = await w.product('C', { [w.east]: 2, [w.west]: 10 });
  id.D = await w.product('D', { [w.east]: 2 });
  id.K = await w.product('KIT');
  await w.t.db.prisma.product.update({
    where: { id: id.K },
    data: {
      type: 'VIRTUAL_BUNDLE',
      components: {
        create: [
          { kind: 'VIRTUAL_BUNDLE', component_product_id: id.A, component_quantity: 1 },
          { kind: 'VIRTUAL_BUNDLE', component_product_id: id.B, component_quantity: 2 },
        ],
      },
    },
  });
});
afterAll(() => w?.t.close());

const fulfillmentOrders = (orderId: string) =>
  w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: orderId }, include: { line_items: true } });

describe('convert', () => {
  it('creates the order, line items, committed stock, one fulfillment order per warehouse, the hold and the event', async () => {
    const d = await w.draft({
      line_items: [{ sku: 'A', quantity: 2, price: 10, applied_discount_amount: 5 }, line('B', 1, 30)],
      customer: { email: 'Grace@Example.com', name: 'Grace Hopper' },
      total_tax: 2.5,
      note: 'leave at door',
      deliver_by: '2030-01-02T03:04:05Z',
    });
    const res = await w.call('POST', `/v1/ops/draft-orders/${d.id}/convert`);
    expect(res.statusCode).toBe(200);
    const o = res.json();
    expect(o).toMatchObject({
      order_number: '#1001',
      status: 'OPEN',
      fulfillment_status: 'UNFULFILLED',
      payment_status: 'PENDING',
      priority: 'NORMAL',
      merchant_team_id: w.merchantId,
      team_id: w.merchantId,
      fulfiller_team_id: w.t.teamId,
      shop_type: 'MANUAL',
      shop_slug: 'manual-orders',
      total_price: 47.5,
      total_discount: 5,
      total_tax: 2.5,
      total_shipping: 0,
      total_outstanding: 47.5,
      core_line_item_count: 3,
      unique_core_line_item_count: 2,
      tracking_count: 0,
      fulfillment_count: 0,
      line_item_image_urls: ['https://img.example/A.jpg', 'https://img.example/B.jpg'],
      customer_email: 'Grace@Example.com',
      customer_name: 'Grace Hopper',
      note: 'leave at door',
      deliver_by: '2030-01-02T03:04:05.000Z',
      shipping_address_name: 'Ada Lovelace',
      shipping_address_city: 'Portland',
      shipping_address_zip: '97201',
      billing_address_name: null,
      address_verified: true,
      address_residential: 'RESIDENTIAL',
      supported_actions: [{ action: 'VIEW_REMOTE_ORDER' }],
    });
    expect(o.address_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(o.address_verified_at).toBeTruthy();
    expect(o.address_verification_response).toMatchObject({
      verified: true,
      residential: 'RESIDENTIAL',
      errors: [],
      corrected_address: { street1: '12 ANALYTICAL WAY', street2: 'SUITE 3', city: 'PORTLAND', state: 'OR', zip5: '97201', zip4: null },
      metadata: { dpv_match_code: 'Y', is_cmra: false },
    });
    expect(o.core_order_line_items.map((l: any) => [l.sku, l.total_quantity, l.remaining_quantity])).toEqual([
      ['A', 2, 2],
      ['B', 1, 1],
    ]);
    expect(
      o.original_order_line_items.map((l: any) => [l.sku, l.price, l.applied_discount_amount, l.original_draft_order_line_item_id]),
    ).toEqual([
      ['A', 10, 5, d.line_items[0].id],
      ['B', 30, 0, d.line_items[1].id],
    ]);
    expect(o.order_fulfillment_holds).toHaveLength(1);
    expect(o.order_fulfillment_holds[0]).toMatchObject({ active: true, reason: 'AWAITING_PAYMENT', order_id: o.id });

    expect(await w.level(id.A, w.east)).toMatchObject({ on_hand: 5, committed: 2 });
    expect(await w.level(id.B, w.west)).toMatchObject({ on_hand: 3, committed: 1 });
    const fos = await fulfillmentOrders(o.id);
    expect(fos).toHaveLength(2);
    for (const fo of fos) expect(fo).toMatchObject({ status: 'PENDING', request_status: 'UNSUBMITTED', merchant_team_id: w.merchantId });
    const byWh = Object.fromEntries(
      fos.map((fo) => [fo.warehouse_id, fo.line_items.map((l) => [l.sku, l.quantity, l.remaining_quantity])]),
    );
    expect(byWh).toEqual({ [w.east]: [['A', 2, 2]], [w.west]: [['B', 1, 1]] });

    const draft = await w.call('GET', `/v1/ops/draft-orders/${d.id}`);
    expect(draft.json()).toMatchObject({ status: 'CONVERTED', order_id: o.id });
    const row = await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: o.id } });
    expect(row.search_text).toBe('grace hopper grace@example.com');
    const events = await w.t.db.prisma.outboxEvent.findMany({ where: { kind: 'order.created' } });
    expect(events.map((e) => (e.payload as any).order_id)).toEqual([o.id]);
  });

  it('refuses a second conversion with 409 and changes nothing', async () => {
    const d = await w.draft({ line_items: [line('A', 1)], payment_status: 'PAID' });
    expect((await w.call('POST', `/v1/ops/draft-orders/${d.id}/convert`)).statusCode).toBe(200);
    const before = await w.level(id.A, w.east);
    const again = await w.call('POST', `/v1/ops/draft-orders/${d.id}/convert`);
    expect(again.statusCode).toBe(409);
    expect(again.json().type).toBe('urn:fos:error:conflict');
    expect(await w.level(id.A, w.east)).toEqual(before);
    expect(
      await w.t.db.prisma.order.count({ where: { line_items: { some: { core_draft_order_line_item_id: d.line_items[0].id } } } }),
    ).toBe(1);
  });

  it('prefers the warehouse that ships the most (fewest splits)', async () => {
    const o = await w.order({ line_items: [line('C', 5)], payment_status: 'PAID' });
    const fos = await fulfillmentOrders(o.id);
    expect(fos.map((f) => [f.warehouse_id, f.line_items[0].quantity])).toEqual([[w.west, 5]]);
    expect(await w.level(id.C, w.west)).toMatchObject({ committed: 5 });
    expect(await w.level(id.C, w.east)).toMatchObject({ committed: 0 });
  });

  it('leaves units without stock unallocated on the OPEN order', async () => {
    const o = await w.order({ line_items: [line('D', 5)], payment_status: 'PAID' });
    expect(o.status).toBe('OPEN');
    const fos = await fulfillmentOrders(o.id);
    expect(fos.map((f) => f.line_items[0].quantity)).toEqual([2]);
    expect(await w.level(id.D, w.east)).toMatchObject({ on_hand: 2, committed: 2 });
    const row = await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: o.id }, include: { line_items: { where: { kind: 'CORE' } } } });
    expect(row.unallocated_quantity).toBe(3);
    expect(row.line_items[0].unallocated_quantity).toBe(3);
  });

  it('ships a virtual bundle as its components (CORE) while keeping the sold line (ORIGINAL)', async () => {
    const o = await w.order({ line_items: [line('KIT', 1, 99)], payment_status: 'PAID' });
    expect(o.original_order_line_items.map((l: any) => [l.sku, l.total_quantity, l.price])).toEqual([['KIT', 1, 99]]);
    expect(o.core_order_line_items.map((l: any) => [l.sku, l.total_quantity])).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
    expect(o).toMatchObject({ core_line_item_count: 3, unique_core_line_item_count: 2, total_price: 99 });
  });

  it('numbers orders sequentially and keeps requested numbers', async () => {
    const a = await w.order({ line_items: [line('A', 1)], payment_status: 'PAID' });
    const b = await w.order({ line_items: [line('A', 1)], payment_status: 'PAID', order_number: '#5000' });
    const c = await w.order({ line_items: [line('C', 1)], payment_status: 'PAID' });
    const n = Number(a.order_number.slice(1));
    expect(a.order_number).toMatch(/^#\d+$/);
    expect(b.order_number).toBe('#5000');
    expect(c.order_number).toBe('#5001');
    expect(n).toBeGreaterThan(1001);
  });
});

describe('payment hold', () => {
  it('blocks fulfillment while PENDING and lifts on mark-paid (once)', async () => {
    const o = await w.order({ line_items: [line('C', 1)] });
    const err = await w.t.db.prisma.$transaction((tx) => assertNoActiveHold(tx, o.id)).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err.kind).toBe('on-hold');
    expect(err.message).toMatch(new RegExp(`^Order ${o.order_number} is on hold: AWAITING_PAYMENT`));
    expect(err.extra.hold_reason).toBe('AWAITING_PAYMENT');

    const paid = await w.call('POST', `/v1/ops/orders/${o.id}/mark-paid`);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ payment_status: 'PAID', total_outstanding: 0 });
    expect(paid.json().order_fulfillment_holds.map((h: any) => h.active)).toEqual([false]);
    await expect(w.t.db.prisma.$transaction((tx) => assertNoActiveHold(tx, o.id))).resolves.toBeUndefined();
    expect((await w.call('POST', `/v1/ops/orders/${o.id}/mark-paid`)).statusCode).toBe(409);
  });

  it('puts no hold on a PAID order', async () => {
    const o = await w.order({ line_items: [line('C', 1)], payment_status: 'PAID' });
    expect(o.order_fulfillment_holds).toEqual([]);
    expect(o.total_outstanding).toBe(0);
  });

  it('reports an incomplete address without verifying it', async () => {
    const o = await w.order({
      line_items: [line('C', 1)],
      payment_status: 'PAID',
      shipping_address: { ...ADDRESS, zip: '9720', state: null },
    });
    expect(o.address_verified).toBe(false);
    expect(o.address_verified_at).toBeNull();
    expect(o.address_verification_response.errors.map((e: any) => e.code)).toEqual(['MISSING_STATE', 'INVALID_ZIP']);
  });
});
