import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

// POST /v1/ops/products/bulk (issue 10 item 7): upsert by SKU with a result per row.

let t: TestApp;
let token: string;
let merchant: { teamId: string };
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
});
afterAll(() => t?.close());

const bulk = (body: unknown) => t.call('POST', '/v1/ops/products/bulk', { token, body });

describe('POST /v1/ops/products/bulk', () => {
  it('creates new SKUs, updates existing ones and reports failing rows without stopping', async () => {
    const first = await bulk({
      products: [
        { sku: 'BULK-A', name: 'Mug A', type: 'STANDARD', weight: 350, weight_unit: 'G', minimum_level: 5 },
        { sku: 'BULK-B', name: 'Mug B', type: 'STANDARD' },
      ],
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ created: 2, updated: 0, failed: 0 });
    const idA = first.json().results[0].id;
    const second = await bulk({
      products: [
        { sku: 'BULK-A', name: 'Mug A (blue)', barcode: '4006381333931' },
        { sku: 'BULK-C' },
        { sku: 'BULK-B', name: 'Mug B' },
        { sku: 'BULK-A', name: 'again' },
        { sku: 'BULK-D', name: 'Kit', type: 'STANDARD', weight_unit: 'G' },
      ],
    });
    expect(second.statusCode).toBe(200);
    const out = second.json();
    expect(out).toMatchObject({ created: 1, updated: 2, failed: 2 });
    expect(out.results.map((r: any) => [r.index, r.status])).toEqual([
      [0, 'updated'],
      [1, 'failed'],
      [2, 'updated'],
      [3, 'failed'],
      [4, 'created'],
    ]);
    expect(out.results[0].id).toBe(idA);
    expect(out.results[1].error).toMatchObject({
      type: 'urn:fos:error:validation-failed',
      status: 400,
      detail: expect.stringMatching(/name and type are required/),
    });
    expect(out.results[3].error.detail).toMatch(/already on products\[0\]/);
    const a = (await t.call('GET', `/v1/ops/products/${idA}`, { token })).json();
    expect(a).toMatchObject({ name: 'Mug A (blue)', barcode: '4006381333931', weight: 350, minimum_level: 5 });
    // Search columns follow the update, as with PATCH.
    expect((await t.call('GET', '/v1/ops/products?search=4006381333931', { token })).json().data.map((p: any) => p.id)).toEqual([idA]);
  });

  it('upserts within a delegated merchant team; other teams and bad bodies are refused', async () => {
    const res = await bulk({ merchant_team_id: merchant.teamId, products: [{ sku: 'BULK-A', name: 'Merchant mug', type: 'STANDARD' }] });
    expect(res.json()).toMatchObject({ created: 1 }); // same SKU, another team: a new product
    const p = await t.db.prisma.product.findUniqueOrThrow({ where: { id: res.json().results[0].id } });
    expect(p).toMatchObject({ team_id: merchant.teamId, merchant_team_id: merchant.teamId, fulfiller_team_id: t.teamId });
    expect(
      (await bulk({ merchant_team_id: '01900000-0000-7000-8000-000000000000', products: [{ sku: 'X', name: 'x', type: 'STANDARD' }] }))
        .statusCode,
    ).toBe(404);
    expect((await bulk({ products: [] })).statusCode).toBe(400);
    expect((await bulk({ products: [{ name: 'no sku', type: 'STANDARD' }] })).statusCode).toBe(400);
    expect((await bulk({ products: [{ sku: 'Y', colour: 'red' }] })).statusCode).toBe(400);
    expect((await bulk({ products: Array.from({ length: 1001 }, (_, i) => ({ sku: `S${i}` })) })).statusCode).toBe(400);
    const reader = await t.key({ permissions: ['READ_PRODUCTS'] });
    expect((await t.call('POST', '/v1/ops/products/bulk', { token: reader.token, body: { products: [{ sku: 'Z' }] } })).statusCode).toBe(
      403,
    );
  });
});
