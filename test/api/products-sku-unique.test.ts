import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

// SKU unique per owning team, ignoring case (issue 25 item 6): every write path answers a clear
// 409 (or a row error) naming the product that has the SKU — single create and update on both path
// families, bulk (which `fos products import` sends), and racing creates, which the unique index
// (team_id, lower(sku)) settles. Another team may use the same SKU.

let t: TestApp;
let token: string;
let merchant: Awaited<ReturnType<TestApp['merchant']>>;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body ? { body } : {}) });
const create = (sku: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/v1/ops/products', { name: `P ${sku}`, type: 'STANDARD', sku, ...extra });

describe('SKU unique per team, ignoring case', () => {
  it('create and update: 409 naming the product that has the SKU; another team may use it', async () => {
    const first = await create('Sku-Case-1');
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json().id;
    const dup = await create('sku-case-1');
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ type: 'urn:fos:error:conflict', product_id: id, sku: 'Sku-Case-1' });
    expect(dup.json().detail).toMatch(/SKU "sku-case-1" is already used by product .* as "Sku-Case-1" of the same team/);

    const second = await create('Sku-Case-2');
    const clash = await call('PATCH', `/v1/ops/products/${second.json().id}`, { sku: 'SKU-CASE-1' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().product_id).toBe(id);
    // Its own SKU in another case is no clash.
    expect((await call('PATCH', `/v1/ops/products/${id}`, { sku: 'SKU-CASE-1' })).statusCode).toBe(200);
    // Another owning team (the delegated merchant) may have it.
    expect((await create('sku-case-1', { merchant_team_id: merchant.teamId })).statusCode).toBe(201);
  });

  it('bulk (and CSV import, which sends bulk): a row error for a SKU differing only in case', async () => {
    expect((await create('Bulk-Case')).statusCode).toBe(201);
    const res = await call('POST', '/v1/ops/products/bulk', {
      products: [
        { sku: 'BULK-CASE', name: 'dup', type: 'STANDARD' },
        { sku: 'Bulk-New', name: 'new', type: 'STANDARD' },
        { sku: 'bulk-new', name: 'dup of row 1', type: 'STANDARD' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out.results.map((r: any) => r.status)).toEqual(['failed', 'created', 'failed']);
    expect(out.results[0].error.detail).toMatch(/already used by product .* as "Bulk-Case"/);
    expect(out.results[2].error.detail).toMatch(/already on products\[1\] \(ignoring case\)/);
  });

  it('racing creates of one SKU in two cases: exactly one is created, the other a 409', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([create(`Race-${round}`), create(`RACE-${round}`)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
      const loser = a.statusCode === 409 ? a : b;
      expect(loser.json().detail).toMatch(/already used by product/);
    }
    const rows = await t.db.prisma.product.findMany({ where: { team_id: t.teamId, sku: { startsWith: 'R' } } });
    expect(rows.filter((p) => /^race-\d$/i.test(p.sku!))).toHaveLength(3);
  });
});
