import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './orders.fixtures.js';
import { httpCall, ledgerBalanced } from './inventory.fixtures.js';
import * as teams from '../../src/domain/teams/teams.js';

// Purchase orders / inbound receipts over HTTP (issue 10 item 3): on_order raised at create,
// partial and repeated receipts, over-receipt refused unless allowed, damaged units set aside,
// the receiving charge billed with purchase_order_id, close and cancel releasing what is open,
// the merchant side (a WRO), tenancy, and parallel receipts that can never over-receive.

let w: World;
let base: string;
let merchant: { teamId: string; token: string; delegationId: string };
let other: { token: string };
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  merchant = await w.t.merchant({
    rate_card: { id: 'rc', name: 'Std', version_id: 'v1', semantic_version: '1.0.0', currency: 'EUR', receiving: { rate_per_unit: 0.25 } },
  });
  const team = await teams.createTeam(w.t.db, { name: 'Other DC', kind: 'FULFILLER' });
  other = { token: (await w.t.key({ teamId: team.id, tier: 4 })).token };
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, token = w.token) => httpCall(base, token, method, path, body);
const lvl = (p: string) => w.level(p, w.east);

async function product(sku: string, owner = merchant.teamId) {
  return w.product(sku, {}, { merchantId: owner });
}

describe('purchase orders', () => {
  it('raises on_order, receives partially and repeatedly, bills receiving and ends RECEIVED', async () => {
    const a = await product('PO-A');
    const b = await product('PO-B');
    const created = await http('POST', '/v1/ops/purchase-orders', {
      warehouse_id: w.east,
      merchant_team_id: merchant.teamId,
      reference: 'PO-1001',
      expected_at: '2026-12-01T09:00:00Z',
      lines: [
        { sku: 'PO-A', quantity: 10 },
        { product_id: b, quantity: 4 },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const po = created.body;
    expect(po).toMatchObject({
      status: 'OPEN',
      reference: 'PO-1001',
      warehouse_name: 'East',
      merchant_team_id: merchant.teamId,
      fulfillment_delegation_id: merchant.delegationId,
      total_quantity: 14,
      total_open: 14,
    });
    expect(await lvl(a)).toMatchObject({ on_hand: 0, on_order: 10 });

    const first = await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, {
      lines: [{ sku: 'PO-A', quantity: 6, lot_code: 'L-7', expiration_date: '2027-06-30' }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ units: 6, purchase_order: { status: 'PARTIALLY_RECEIVED', total_received: 6, total_open: 8 } });
    expect(await lvl(a)).toMatchObject({ on_hand: 6, on_order: 4 });
    const charge = await http('GET', `/v1/ops/charges/${first.body.charge_id}`);
    expect(charge.body).toMatchObject({
      category: 'RECEIVING',
      quantity: 6,
      calculated_amount: 1.5,
      purchase_order_id: po.id,
      merchant_team_id: merchant.teamId,
    });
    const moves = await http('GET', `/v1/ops/inventory/movements?reference_id=${po.id}&kind=RECEIVED`);
    expect(moves.body.data.map((m: any) => [m.bucket, m.delta, m.lot_code, m.expiration_date]).sort()).toEqual([
      ['on_hand', 6, 'L-7', '2027-06-30'],
      ['on_order', -6, 'L-7', '2027-06-30'],
    ]);

    const rest = await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, {
      lines: [
        { sku: 'PO-A', quantity: 4 },
        { sku: 'PO-B', quantity: 3 },
        { sku: 'PO-B', quantity: 1, condition: 'DAMAGED' },
      ],
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.purchase_order).toMatchObject({
      status: 'RECEIVED',
      total_open: 0,
      received_at: first.body.purchase_order.received_at,
    });
    expect(rest.body.purchase_order.lines.find((l: any) => l.sku === 'PO-B')).toMatchObject({ quantity_received: 4, quantity_damaged: 1 });
    expect(await lvl(b)).toMatchObject({ on_hand: 4, unavailable: 1, on_order: 0 });
    await ledgerBalanced(w.t.db, [a, b]);

    const merchantView = await http('GET', `/v1/merchant/purchase-orders/${po.id}`, undefined, merchant.token);
    expect(merchantView.body).toMatchObject({ id: po.id, status: 'RECEIVED' });
    const events = await w.t.db.prisma.outboxEvent.findMany({
      where: { kind: { startsWith: 'purchase_order.' }, team_id: merchant.teamId },
    });
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['purchase_order.created', 'purchase_order.received']));
  });

  it('refuses over-receipt unless allowed, and products not on the order', async () => {
    const p = await product('PO-OVER');
    await product('PO-ELSE');
    const po = (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'PO-OVER', quantity: 5 }] })).body;
    const over = await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, { lines: [{ sku: 'PO-OVER', quantity: 6 }] });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ quantity_open: 5 });
    expect(over.body.detail).toMatch(/allow_over_receipt/);
    expect(await lvl(p)).toMatchObject({ on_hand: 0, on_order: 5 });
    const allowed = await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, {
      allow_over_receipt: true,
      lines: [{ sku: 'PO-OVER', quantity: 6 }],
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.charge_id).toBeNull(); // no merchant named: nothing to bill
    expect(await lvl(p)).toMatchObject({ on_hand: 6, on_order: 0 });
    const stranger = await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, {
      allow_over_receipt: true,
      lines: [{ sku: 'PO-ELSE', quantity: 1 }],
    });
    expect(stranger.status).toBe(409);
    expect(stranger.body.detail).toMatch(/not on purchase order/);
    await ledgerBalanced(w.t.db, [p]);
  });

  it('close releases what is open; cancel only before anything arrived; neither twice', async () => {
    const p = await product('PO-CLOSE');
    const po = (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'PO-CLOSE', quantity: 8 }] })).body;
    await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, { lines: [{ sku: 'PO-CLOSE', quantity: 3 }] });
    const cancel = await http('POST', `/v1/ops/purchase-orders/${po.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.detail).toMatch(/close it instead/);
    const closed = await http('POST', `/v1/ops/purchase-orders/${po.id}/close`);
    expect(closed.body).toMatchObject({ status: 'CLOSED', total_open: 0, closed_at: expect.any(String) });
    expect(await lvl(p)).toMatchObject({ on_hand: 3, on_order: 0 });
    expect((await http('POST', `/v1/ops/purchase-orders/${po.id}/close`)).status).toBe(409);
    expect((await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, { lines: [{ sku: 'PO-CLOSE', quantity: 1 }] })).status).toBe(
      409,
    );

    const po2 = (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'PO-CLOSE', quantity: 2 }] })).body;
    const cancelled = await http('POST', `/v1/ops/purchase-orders/${po2.id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelled_at: expect.any(String) });
    expect(await lvl(p)).toMatchObject({ on_order: 0 });
    const released = await http('GET', `/v1/ops/inventory/movements?reference_id=${po2.id}&kind=RELEASED`);
    expect(released.body.data).toEqual([expect.objectContaining({ bucket: 'on_order', delta: -2, reason: 'CANCELLED' })]);
    await ledgerBalanced(w.t.db, [p]);
  });

  it('lists newest first with filters and cursors; other teams see 404s and empty lists', async () => {
    await product('PO-LIST');
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await http('POST', '/v1/ops/purchase-orders', {
            warehouse_id: w.west,
            reference: `LIST-${i}`,
            lines: [{ sku: 'PO-LIST', quantity: 1 }],
          })
        ).body.id,
      );
    const page1 = await http('GET', `/v1/ops/purchase-orders?warehouse_id=${w.west}&limit=2`);
    const page2 = await http('GET', `/v1/ops/purchase-orders?warehouse_id=${w.west}&limit=2&cursor=${page1.body.meta.next_cursor}`);
    expect([...page1.body.data, ...page2.body.data].map((p: any) => p.id)).toEqual([...ids].reverse());
    expect((await http('GET', '/v1/ops/purchase-orders?reference=LIST-1')).body.data.map((p: any) => p.id)).toEqual([ids[1]]);
    expect((await http('GET', '/v1/ops/purchase-orders?status=OPEN,RECEIVED')).status).toBe(200);
    expect((await http('GET', '/v1/ops/purchase-orders?status=LOST')).status).toBe(400);
    expect((await http('GET', `/v1/ops/purchase-orders/${ids[0]}`, undefined, other.token)).status).toBe(404);
    expect(
      (await http('POST', `/v1/ops/purchase-orders/${ids[0]}/receive`, { lines: [{ sku: 'PO-LIST', quantity: 1 }] }, other.token)).status,
    ).toBe(404);
    expect((await http('POST', `/v1/ops/purchase-orders/${ids[0]}/close`, undefined, other.token)).status).toBe(404);
    expect((await http('GET', '/v1/ops/purchase-orders', undefined, other.token)).body.data).toEqual([]);
    expect(
      (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'PO-LIST', quantity: 1 }] }, other.token))
        .status,
    ).toBe(404);
  });

  it('answers 400 for bad bodies', async () => {
    const cases: Record<string, unknown>[] = [
      { warehouse_id: w.east, lines: [] },
      { warehouse_id: w.east, lines: [{ sku: 'PO-LIST', quantity: 0 }] },
      { warehouse_id: w.east, lines: [{ sku: 'PO-LIST', quantity: 1.5 }] },
      { warehouse_id: w.east, lines: [{ sku: 'PO-LIST', quantity: 1, colour: 'red' }] },
      { warehouse_id: w.east, expected_at: 'tomorrow', lines: [{ sku: 'PO-LIST', quantity: 1 }] },
      { warehouse_id: w.east, lines: [{ sku: 'PO-LIST', product_id: 'x', quantity: 1 }] },
    ];
    for (const body of cases) expect((await http('POST', '/v1/ops/purchase-orders', body)).status, JSON.stringify(body)).toBe(400);
    const po = (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'PO-LIST', quantity: 1 }] })).body;
    for (const body of [
      { lines: [{ sku: 'PO-LIST', quantity: 1, condition: 'WET' }] },
      { lines: [{ sku: 'PO-LIST', quantity: 1, expiration_date: '31/12/2027' }] },
    ]) {
      expect((await http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('merchant purchase orders (WRO)', () => {
  it("a merchant announces stock for its fulfiller's warehouse, only its own products; the fulfiller receives it", async () => {
    const p = await product('WRO-1');
    const foreign = await w.t.merchant();
    await product('WRO-THEIRS', foreign.teamId);
    const res = await http(
      'POST',
      '/v1/merchant/purchase-orders',
      { warehouse_id: w.east, reference: 'ASN-9', lines: [{ sku: 'WRO-1', quantity: 12 }] },
      merchant.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      merchant_team_id: merchant.teamId,
      fulfiller_team_id: w.t.teamId,
      fulfillment_delegation_id: merchant.delegationId,
    });
    expect(
      (
        await http(
          'POST',
          '/v1/merchant/purchase-orders',
          { warehouse_id: w.east, lines: [{ sku: 'WRO-THEIRS', quantity: 1 }] },
          merchant.token,
        )
      ).status,
    ).toBe(404);
    const team = await teams.createTeam(w.t.db, { name: 'Unrelated DC', kind: 'FULFILLER' });
    const far = await teams.createWarehouse(w.t.db, { team_id: team.id, name: 'Far' });
    expect(
      (await http('POST', '/v1/merchant/purchase-orders', { warehouse_id: far.id, lines: [{ sku: 'WRO-1', quantity: 1 }] }, merchant.token))
        .status,
    ).toBe(404);
    const got = await http('POST', `/v1/ops/purchase-orders/${res.body.id}/receive`, { lines: [{ sku: 'WRO-1', quantity: 12 }] });
    expect(got.body).toMatchObject({ charge_id: expect.any(String), purchase_order: { status: 'RECEIVED' } });
    expect(await lvl(p)).toMatchObject({ on_hand: 12, on_order: 0 });
    const list = await http('GET', '/v1/merchant/purchase-orders?status=RECEIVED', undefined, merchant.token);
    expect(list.body.data.map((x: any) => x.id)).toContain(res.body.id);
    expect((await http('GET', `/v1/merchant/purchase-orders/${res.body.id}`, undefined, foreign.token)).status).toBe(404);
  });
});

describe('receipts racing', () => {
  it('parallel receipts and a close never receive more than ordered nor leave on_order wrong', async () => {
    const p = await product('PO-RACE');
    const po = (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'PO-RACE', quantity: 10 }] })).body;
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        http('POST', `/v1/ops/purchase-orders/${po.id}/receive`, { lines: [{ sku: 'PO-RACE', quantity: 3 }] }),
      ),
      http('POST', `/v1/ops/purchase-orders/${po.id}/close`),
    ]);
    const ok = results.slice(0, 8).filter((r) => r.status === 200).length;
    expect(results.slice(0, 8).every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(ok).toBeLessThanOrEqual(3);
    const final = (await http('GET', `/v1/ops/purchase-orders/${po.id}`)).body;
    expect(final.total_received).toBe(ok * 3);
    const [level] = await ledgerBalanced(w.t.db, [p]);
    expect(level.on_hand).toBe(ok * 3);
    expect(level.on_order).toBe(final.status === 'CLOSED' ? 0 : 10 - ok * 3);
  });
});
