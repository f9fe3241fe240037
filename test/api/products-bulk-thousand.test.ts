import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSqliteStatements } from '../helpers/statements.js';
import { testApp, type TestApp } from '../helpers/app.js';

// POST /v1/ops/products/bulk at its size (issue 29 item 3): 1,000 rows in one transaction of a
// handful of statements, per-row results kept, and a repeat with the same Idempotency-Key answers
// the first answer without writing.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const bulk = (body: unknown, key?: string) =>
  t.call('POST', '/v1/ops/products/bulk', { token, body, headers: key ? { 'idempotency-key': key } : undefined });
const sqlite = process.env.FOS_TEST_DB !== 'postgres';
const rows = (n: number, f: (i: number) => Record<string, unknown>) => Array.from({ length: n }, (_, i) => ({ sku: `K-${i}`, ...f(i) }));

describe('POST /v1/ops/products/bulk, 1,000 rows', () => {
  it('has its body validator compiled when the server starts listening, not by its first request', () => {
    // `fos products import` is often the first request a just-started server gets (issue 36 item 6).
    expect(t.app.compileValidatorsAtStart()).toBe(1);
  });

  it('creates 1,000, then updates 1,000 with one failing row, in a handful of statements each', async () => {
    const statements: string[] = [];
    const stop = sqlite ? recordSqliteStatements(statements) : () => undefined;
    let first;
    try {
      first = await bulk({
        products: rows(1000, (i) => ({ name: `P ${i}`, type: 'STANDARD', weight: i, config: { replenishment_minimum_level: 3 } })),
      });
    } finally {
      stop();
    }
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ created: 1000, updated: 0, failed: 0 });
    if (sqlite) expect(statements.filter((s) => !/^(BEGIN|COMMIT)/i.test(s)).length).toBeLessThan(20);
    const ids = first.json().results.map((r: any) => r.id);
    expect(new Set(ids).size).toBe(1000);

    const second = rows(1000, (i) => (i % 2 ? { barcode: `B${i}` } : { name: `Q ${i}`, config: { replenishment_maximum_level: 9 } }));
    second[500] = { sku: 'K-NEW' } as never; // new without name and type: fails alone
    const res = await bulk({ products: second }, 'bulk-key-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 0, updated: 999, failed: 1 });
    expect(res.json().results[500]).toMatchObject({ index: 500, status: 'failed', error: { status: 400 } });
    expect(res.json().results[7]).toMatchObject({ index: 7, status: 'updated', id: ids[7] });

    const p7 = (await t.call('GET', `/v1/ops/products/${ids[7]}`, { token })).json();
    expect(p7).toMatchObject({ name: 'P 7', barcode: 'B7', weight: 7 });
    const p8 = (await t.call('GET', `/v1/ops/products/${ids[8]}`, { token })).json();
    expect(p8).toMatchObject({ name: 'Q 8', barcode: null, weight: 8 });
    expect(p8.config).toMatchObject({ replenishment_minimum_level: 3, replenishment_maximum_level: 9 });
    // Search columns follow the update.
    const search = async (q: string) => (await t.call('GET', `/v1/ops/products?search=${q}`, { token })).json().data.map((p: any) => p.id);
    expect(await search('b997')).toEqual([ids[997]]);
    expect(await search('q%20998')).toEqual([ids[998]]);

    // The same key and body: the first answer, nothing written again.
    const before = await t.db.prisma.product.findUniqueOrThrow({ where: { id: ids[8] } });
    const again = await bulk({ products: second }, 'bulk-key-1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(res.json());
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: ids[8] } })).updated_at).toEqual(before.updated_at);
    // The same key with another body is a conflict.
    expect((await bulk({ products: [{ sku: 'K-1', name: 'other' }] }, 'bulk-key-1')).statusCode).toBe(409);
  });
});
