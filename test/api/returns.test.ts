import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { fulfillOrder, httpCall, ledgerBalanced, otherFulfiller } from './inventory.fixtures.js';

// Returns (issue 10 item 6): only fulfilled, not yet returned units; SELLABLE restocks, DAMAGED
// is set aside; the order line shows returned_quantity; the receipt bills a receiving charge with
// return_id and writes RETURNED movements naming the return; racing returns cannot over-return.

let w: World;
let base: string;
let other: { token: string };
let billed: { teamId: string; token: string; delegationId: string };
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  other = await otherFulfiller(w.t);
  billed = await w.t.merchant({
    rate_card: { id: 'rc', name: 'Std', version_id: 'v1', semantic_version: '1.0.0', currency: 'EUR', receiving: { rate_per_unit: 0.5 } },
  });
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, token = w.token) => httpCall(base, token, method, path, body);

/** An order of `qty` units of a new product, fulfilled in full from East. */
async function shipped(sku: string, qty: number, merchantId?: string) {
  const p = await w.product(sku, { [w.east]: qty + 5 }, merchantId ? { merchantId } : {});
  const order = await w.order({ merchant_team_id: merchantId ?? w.merchantId, line_items: [line(sku, qty)], payment_status: 'PAID' });
  expect(await fulfillOrder(w.t.db, http, order.id)).toEqual([200]);
  return { p, order };
}

describe('returns', () => {
  it('restocks sellable units, sets damaged ones aside, bills with return_id and shows returned_quantity', async () => {
    const { p, order } = await shipped('RET-1', 4, billed.teamId);
    const r = await http('POST', '/v1/ops/returns', {
      order_id: order.id,
      reference: 'RMA-1',
      lines: [{ sku: 'RET-1', quantity: 3, reason: 'DEFECTIVE' }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      status: 'OPEN',
      warehouse_id: w.east,
      merchant_team_id: billed.teamId,
      lines: [{ quantity: 3, reason: 'DEFECTIVE' }],
    });
    const got = await http('GET', `/v1/ops/orders/${order.id}`);
    expect(got.body.core_order_line_items[0]).toMatchObject({ returned_quantity: 3 });
    const onHand = (await w.level(p, w.east))!.on_hand;
    const rec = await http('POST', `/v1/ops/returns/${r.body.id}/receive`, {
      lines: [
        { sku: 'RET-1', quantity: 2 },
        { sku: 'RET-1', quantity: 1, condition: 'DAMAGED' },
      ],
    });
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
    expect(rec.body).toMatchObject({
      status: 'RECEIVED',
      lines: [{ quantity_received: 3, quantity_restocked: 2, quantity_damaged: 1 }],
      charge_id: expect.any(String),
    });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: onHand + 3, unavailable: 1 });
    const charge = await http('GET', `/v1/ops/charges/${rec.body.charge_id}`);
    expect(charge.body).toMatchObject({ category: 'RECEIVING', quantity: 3, return_id: r.body.id, calculated_amount: 1.5 });
    const moves = await http('GET', `/v1/ops/inventory/movements?reference_id=${r.body.id}`);
    expect(moves.body.data.every((m: any) => m.kind === 'RETURNED' && m.reference_type === 'return')).toBe(true);
    expect((await http('POST', `/v1/ops/returns/${r.body.id}/receive`, { lines: [{ sku: 'RET-1', quantity: 1 }] })).status).toBe(409);
    await ledgerBalanced(w.t.db, [p]);
  });

  it('never returns more than was fulfilled and not yet returned, even when returns race', async () => {
    const { order } = await shipped('RET-RACE', 5);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'RET-RACE', quantity: 2 }] })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409).every((r) => /only 1 of RET-RACE/.test(r.body.detail))).toBe(true);
    const line0 = (await http('GET', `/v1/ops/orders/${order.id}`)).body.core_order_line_items[0];
    expect(line0.returned_quantity).toBe(4);
    const unfulfilled = await w.order({ merchant_team_id: w.merchantId, line_items: [line('RET-RACE', 1)], payment_status: 'PAID' });
    const none = await http('POST', '/v1/ops/returns', {
      order_id: unfulfilled.id,
      warehouse_id: w.east,
      lines: [{ sku: 'RET-RACE', quantity: 1 }],
    });
    expect(none.status).toBe(409);
    expect(none.body.detail).toMatch(/only 0 of RET-RACE/);
  });

  it('cancel gives the reservation back; errors for bad lines, other teams and received returns', async () => {
    const { order } = await shipped('RET-C', 2);
    const r = (await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'RET-C', quantity: 2 }] })).body;
    const c = await http('POST', `/v1/ops/returns/${r.id}/cancel`);
    expect(c.body).toMatchObject({ status: 'CANCELLED' });
    expect((await http('GET', `/v1/ops/orders/${order.id}`)).body.core_order_line_items[0].returned_quantity).toBe(0);
    expect((await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'NOPE', quantity: 1 }] })).status).toBe(409);
    expect((await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ quantity: 1 }] })).status).toBe(400);
    expect(
      (await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'RET-C', quantity: 1, reason: 'BORED' }] })).status,
    ).toBe(400);
    expect(
      (await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'RET-C', quantity: 1 }] }, other.token)).status,
    ).toBe(404);
    const again = (await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'RET-C', quantity: 1 }] })).body;
    expect((await http('GET', `/v1/ops/returns/${again.id}`, undefined, other.token)).status).toBe(404);
    await http('POST', `/v1/ops/returns/${again.id}/receive`, { lines: [{ sku: 'RET-C', quantity: 1 }] });
    expect((await http('POST', `/v1/ops/returns/${again.id}/cancel`)).status).toBe(409);
    const list = await http('GET', `/v1/ops/returns?order_id=${order.id}&status=CANCELLED`);
    expect(list.body.data.map((x: any) => x.id)).toEqual([r.id]);
  });
});
