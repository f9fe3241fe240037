import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { httpCall, ledgerBalanced, otherFulfiller } from './inventory.fixtures.js';

// Transfers between a team's warehouses (issue 10 item 5): ship (source on_hand down, on order at
// the destination), partial receipts with damaged units, cancel returning what is in transit,
// only sellable units ship, tenancy, and racing receipts that cannot over-receive.

let w: World;
let base: string;
let other: { token: string; warehouse: string };
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  other = await otherFulfiller(w.t);
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, token = w.token) => httpCall(base, token, method, path, body);
const ship = (body: Record<string, unknown>, token?: string) =>
  http('POST', '/v1/ops/inventory/transfers', { from_warehouse_id: w.east, to_warehouse_id: w.west, ...body }, token);

describe('transfers', () => {
  it('ships, receives partially (some damaged) and completes; the ledger explains both warehouses', async () => {
    const p = await w.product('TR-1', { [w.east]: 20 });
    const t = await ship({ reference: 'T-1', lines: [{ sku: 'TR-1', quantity: 8 }] });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    expect(t.body).toMatchObject({
      status: 'IN_TRANSIT',
      from_warehouse_name: 'East',
      to_warehouse_name: 'West',
      lines: [{ quantity: 8, quantity_in_transit: 8 }],
    });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 12 });
    expect(await w.level(p, w.west)).toMatchObject({ on_hand: 0, on_order: 8 });
    const part = await http('POST', `/v1/ops/inventory/transfers/${t.body.id}/receive`, {
      lines: [
        { sku: 'TR-1', quantity: 5 },
        { sku: 'TR-1', quantity: 1, condition: 'DAMAGED' },
      ],
    });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body).toMatchObject({
      status: 'PARTIALLY_RECEIVED',
      lines: [{ quantity_received: 6, quantity_damaged: 1, quantity_in_transit: 2 }],
    });
    expect(await w.level(p, w.west)).toMatchObject({ on_hand: 6, unavailable: 1, on_order: 2 });
    const over = await http('POST', `/v1/ops/inventory/transfers/${t.body.id}/receive`, { lines: [{ sku: 'TR-1', quantity: 3 }] });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ quantity_in_transit: 2 });
    const done = await http('POST', `/v1/ops/inventory/transfers/${t.body.id}/receive`, { lines: [{ sku: 'TR-1', quantity: 2 }] });
    expect(done.body.status).toBe('RECEIVED');
    expect((await http('POST', `/v1/ops/inventory/transfers/${t.body.id}/cancel`)).status).toBe(409);
    const moves = await http('GET', `/v1/ops/inventory/movements?reference_id=${t.body.id}`);
    expect(new Set(moves.body.data.map((m: any) => m.kind))).toEqual(new Set(['TRANSFER_OUT', 'TRANSFER_IN']));
    await ledgerBalanced(w.t.db, [p]);
    const list = await http('GET', `/v1/ops/inventory/transfers?status=RECEIVED&warehouse_id=${w.west}`);
    expect(list.body.data.map((x: any) => x.id)).toContain(t.body.id);
  });

  it('cancel sends what is still in transit back to the source', async () => {
    const p = await w.product('TR-CANCEL', { [w.east]: 10 });
    const t = (await ship({ lines: [{ sku: 'TR-CANCEL', quantity: 6 }] })).body;
    await http('POST', `/v1/ops/inventory/transfers/${t.id}/receive`, { lines: [{ sku: 'TR-CANCEL', quantity: 2 }] });
    const c = await http('POST', `/v1/ops/inventory/transfers/${t.id}/cancel`);
    expect(c.body).toMatchObject({ status: 'CANCELLED', cancelled_at: expect.any(String) });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 8 });
    expect(await w.level(p, w.west)).toMatchObject({ on_hand: 2, on_order: 0 });
    await ledgerBalanced(w.t.db, [p]);
  });

  it("ships only sellable units; refuses the same warehouse, other teams' warehouses and bad bodies", async () => {
    await w.product('TR-SELL', { [w.east]: 5 });
    await w.order({ line_items: [line('TR-SELL', 4)], payment_status: 'PAID' }); // 4 committed at East
    const short = await ship({ lines: [{ sku: 'TR-SELL', quantity: 2 }] });
    expect(short.status).toBe(409);
    expect(short.body.detail).toMatch(/only 1 of TR-SELL/);
    expect((await ship({ lines: [{ sku: 'TR-SELL', quantity: 1 }] })).status).toBe(201);
    expect((await ship({ to_warehouse_id: w.east, lines: [{ sku: 'TR-SELL', quantity: 1 }] })).status).toBe(400);
    expect((await ship({ to_warehouse_id: other.warehouse, lines: [{ sku: 'TR-SELL', quantity: 1 }] })).status).toBe(404);
    expect((await ship({ lines: [{ sku: 'TR-SELL', quantity: 0 }] })).status).toBe(400);
    expect((await ship({ lines: [{ sku: 'TR-SELL', quantity: 1, bin: 'A' }] })).status).toBe(400);
    const mine = (await http('GET', '/v1/ops/inventory/transfers')).body.data[0];
    expect((await http('GET', `/v1/ops/inventory/transfers/${mine.id}`, undefined, other.token)).status).toBe(404);
    expect((await http('POST', `/v1/ops/inventory/transfers/${mine.id}/cancel`, undefined, other.token)).status).toBe(404);
  });

  it('parallel receipts never receive more than was shipped', async () => {
    const p = await w.product('TR-RACE', { [w.east]: 10 });
    const t = (await ship({ lines: [{ sku: 'TR-RACE', quantity: 7 }] })).body;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        http('POST', `/v1/ops/inventory/transfers/${t.id}/receive`, { lines: [{ sku: 'TR-RACE', quantity: 2 }] }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    expect(await w.level(p, w.west)).toMatchObject({ on_hand: 6, on_order: 1 });
    await ledgerBalanced(w.t.db, [p]);
  });
});
