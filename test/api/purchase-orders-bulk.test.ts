import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSqliteStatements } from '../helpers/statements.js';
import { world, type World } from './orders.fixtures.js';
import { httpCall, ledgerBalanced } from './inventory.fixtures.js';

// A 1,000-line purchase order and its receipt through the bulk ledger (issue 29 item 3): every
// level, bin and movement as line-by-line receiving wrote them, in a bounded number of statements.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);
const sqlite = process.env.FOS_TEST_DB !== 'postgres';

describe('purchase-order receipt of 1,000 lines', () => {
  it('receives every line (one damaged, the rest sellable) with an exact ledger, in a few dozen statements', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ sku: `RB-${i}`, name: `R ${i}`, type: 'STANDARD' }));
    expect((await http('POST', '/v1/ops/products/bulk', { products: rows })).status).toBe(200);
    const po = await http('POST', '/v1/ops/purchase-orders', {
      warehouse_id: w.east,
      lines: rows.map((r) => ({ sku: r.sku, quantity: 10 })),
    });
    expect(po.status, JSON.stringify(po.body)).toBe(201);
    const lines = rows.map((r, i) => ({ sku: r.sku, quantity: i === 3 ? 2 : 6, ...(i === 3 ? { condition: 'DAMAGED' } : {}) }));
    const statements: string[] = [];
    const stop = sqlite ? recordSqliteStatements(statements) : () => undefined;
    let res;
    try {
      res = await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, { lines });
    } finally {
      stop();
    }
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.units).toBe(5996);
    if (sqlite) expect(statements.length).toBeLessThan(60);
    const level = (sku: string) => w.t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { warehouse_id: w.east, product: { sku } } });
    expect(await level('RB-0')).toMatchObject({ on_hand: 6, unavailable: 0, on_order: 4 });
    expect(await level('RB-3')).toMatchObject({ on_hand: 2, unavailable: 2, on_order: 8 });
    const ids = (await w.t.db.prisma.product.findMany({ where: { sku: { startsWith: 'RB-' } }, select: { id: true } })).map((p) => p.id);
    const levels = await ledgerBalanced(w.t.db, ids);
    // Every level equals the sum of its bins.
    const bins = await w.t.db.prisma.locationStock.groupBy({
      by: ['product_id'],
      where: { product_id: { in: ids } },
      _sum: { on_hand: true },
    });
    const inBins = new Map(bins.map((b) => [b.product_id, b._sum.on_hand]));
    for (const l of levels) expect(inBins.get(l.product_id)).toBe(l.on_hand);
    // Over-receipt is still refused as a whole: nothing of the request applies.
    const over = await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, {
      lines: [
        { sku: 'RB-0', quantity: 1 },
        { sku: 'RB-1', quantity: 5 },
      ],
    });
    expect(over.status).toBe(409);
    expect(over.body.detail).toMatch(/^lines\[1\]: receiving 5 of RB-1 passes what is open \(4 of 10\)/);
    expect(await level('RB-0')).toMatchObject({ on_hand: 6, on_order: 4 });
  });
});
