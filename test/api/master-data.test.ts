import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { SHIP_TO } from '../helpers/fixtures.js';

// Clean master data (issue 25 item 6, codes part): ISO 3166-1 alpha-2 countries, ISO 4217
// currencies and HS codes by pattern, checked by the TypeBox schemas (so the OpenAPI document
// lists them) on the product writes of both families, the bulk upsert and draft orders.

let t: TestApp;
let ops: string;
let merchant: { token: string };
beforeAll(async () => {
  t = await testApp();
  ops = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
});
afterAll(() => t?.close());

const post = (url: string, body: unknown, token = ops) => t.call('POST', url, { token, body });

describe('ISO codes and HS codes on every product write path', () => {
  const bad = [
    [{ country_of_origin: 'y'.repeat(64) }, 'country_of_origin'],
    [{ country_of_origin: 'XK' }, 'country_of_origin'],
    [{ country_of_origin: 'pt' }, 'country_of_origin'],
    [{ cost_currency: 'USDUSDUS' }, 'cost_currency'],
    [{ customs_value_currency: 'ABC' }, 'customs_value_currency'],
    [{ hs_code: 'mugs' }, 'hs_code'],
    [{ hs_code: '12345' }, 'hs_code'],
  ] as const;

  it('ops create and update, merchant create and the bulk upsert refuse bad codes with 400 naming the field', async () => {
    for (const [fields, name] of bad) {
      const created = await post('/v1/ops/products', { name: 'Mug', type: 'STANDARD', sku: `BAD-${name}`, ...fields });
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json().detail).toContain(name);
      expect(
        (await post('/v1/merchant/products', { name: 'Mug', type: 'STANDARD', sku: `MBAD-${name}`, ...fields }, merchant.token)).statusCode,
      ).toBe(400);
      const bulk = await post('/v1/ops/products/bulk', { products: [{ sku: `BBAD-${name}`, name: 'Mug', ...fields }] });
      expect(bulk.statusCode === 400 || bulk.json().failed === 1, bulk.body).toBe(true);
    }
    const good = await post('/v1/ops/products', {
      name: 'Mug',
      type: 'STANDARD',
      sku: 'GOOD-1',
      cost_price: 2,
      cost_currency: 'EUR',
      customs_value: 9,
      customs_value_currency: 'USD',
      country_of_origin: 'PT',
      hs_code: '6912.00',
    });
    expect(good.statusCode, good.body).toBe(201);
    const patched = await t.call('PATCH', `/v1/ops/products/${good.json().id}`, {
      token: ops,
      body: { country_of_origin: 'VN', hs_code: '6912004810', cost_currency: null },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ country_of_origin: 'VN', hs_code: '6912004810', cost_currency: null });
    expect((await t.call('PATCH', `/v1/ops/products/${good.json().id}`, { token: ops, body: { cost_currency: 'usd' } })).statusCode).toBe(
      400,
    );
  });

  it('draft orders take ISO countries and currencies only', async () => {
    expect(
      (await post('/v1/ops/products', { name: 'Mug', type: 'STANDARD', sku: 'ISO-DRAFT', merchant_team_id: merchant.teamId })).statusCode,
    ).toBe(201);
    const base = {
      merchant_team_id: merchant.teamId,
      line_items: [{ sku: 'ISO-DRAFT', quantity: 1, price: 1 }],
      shipping_address: SHIP_TO,
    };
    expect((await post('/v1/ops/draft-orders', { ...base, shipping_address: { ...SHIP_TO, country: 'ZZ' } })).statusCode).toBe(400);
    expect((await post('/v1/ops/draft-orders', { ...base, currency: 'XYZ' })).statusCode).toBe(400);
    expect(
      (await post('/v1/ops/draft-orders', { ...base, currency: 'GBP', shipping_address: { ...SHIP_TO, country: 'GB' } })).statusCode,
    ).toBe(201);
  });

  it('the OpenAPI document lists the codes', async () => {
    const doc = (await t.call('GET', '/v1/swagger.json', { token: null })).json();
    const text = JSON.stringify(doc);
    expect(text).toContain('ISO 3166-1 alpha-2 country code');
    const body = doc.paths['/ops/products'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    const country = schema.properties.country_of_origin;
    const values = JSON.stringify(country);
    expect(values).toContain('"PT"');
    expect(values).not.toContain('"XK"');
    expect(JSON.stringify(schema.properties.cost_currency)).toContain('"EUR"');
    expect(JSON.stringify(schema.properties.hs_code)).toContain('pattern');
  });
});
