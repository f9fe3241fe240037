import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileVersion, priceStorage } from '../../src/domain/charges/pricing.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { publish } from '../helpers/rate-cards.js';

// Every condition kind and every price type of a fee rule (docs/billing.md), through
// POST /v1/ops/rate-cards/{id}/test (prices a sample event, records nothing), and priceStorage,
// the storage snapshot's entry point.

let t: TestApp;
let token: string;
let cardId: string;
const M = '0193aaaa-0000-7000-8000-000000000001';
const W = '0193aaaa-0000-7000-8000-00000000000a';
const LT = '0193aaaa-0000-7000-8000-0000000000bb';

// One rule per condition kind (SHIPPING, first match wins), then an unconditional fallback.
const SHIPPING = [
  ['merchant', { merchants: [M] }],
  ['warehouse', { warehouses: [W] }],
  ['carrier', { carriers: ['fedex'] }],
  ['service', { services: ['GROUND_SAVER'] }],
  ['zone', { zones: ['8'] }],
  ['tags', { order_tags: ['wholesale'] }],
  ['items', { item_count: { min: 10, max: 20 } }],
  ['weight', { weight: { min: 2, unit: 'KG' } }],
  ['shop', { shop_types: ['SHOPIFY'] }],
].map(([id, conditions], i) => ({ id: `s-${id}`, event: 'SHIPPING', conditions, price: { type: 'FLAT', amount: i + 1 } }));

const FEES = [
  ...SHIPPING,
  { id: 's-default', event: 'SHIPPING', price: { type: 'LABEL_PERCENT', percent: 110, minimum: 6 } },
  {
    id: 'pick-tiered',
    event: 'PICK',
    conditions: { item_count: { min: 100 } },
    price: {
      type: 'TIERED',
      tiers: [
        { up_to: 100, amount: 0.2 },
        { up_to: 500, amount: 0.15 },
        { up_to: null, amount: 0.1 },
      ],
    },
  },
  { id: 'pick-unit', event: 'PICK', price: { type: 'PER_UNIT', amount: 0.3 } },
  { id: 'pack-line', event: 'PACK', price: { type: 'PER_LINE', amount: 0.2 } },
  { id: 'store-pallet', event: 'STORAGE', conditions: { location_types: [LT] }, price: { type: 'PER_LOCATION', amount: 0.9 } },
  { id: 'store-unit', event: 'STORAGE', price: { type: 'PER_UNIT', amount: 0.01 } },
];

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  cardId = (
    await publish(t, token, {
      rate_card_name: 'Conditions',
      semantic_version: '1.0.0',
      effective_at: '2020-01-01T00:00:00Z',
      currency: 'EUR',
      fees: FEES,
    })
  ).rate_card_id;
});
afterAll(() => t?.close());

const other = '0193aaaa-0000-7000-8000-0000000000ff';
async function price(event: Record<string, unknown>) {
  const res = await t.call('POST', `/v1/ops/rate-cards/${cardId}/test`, { token, body: { event: { merchant_team_id: other, ...event } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('conditions', () => {
  it.each([
    ['merchant', { merchant_team_id: M }, 's-merchant', 1],
    ['warehouse', { warehouse_id: W }, 's-warehouse', 2],
    ['carrier (id or integration type, any case)', { carrier: 'FedEx' }, 's-carrier', 3],
    ['service', { service: 'ground_saver' }, 's-service', 4],
    ['zone', { zone: '8' }, 's-zone', 5],
    ['order tags (any)', { order_tags: ['gift', 'Wholesale'] }, 's-tags', 6],
    ['item count in range', { units: 12 }, 's-items', 7],
    ['weight at least 2 kg', { weight_g: 2500 }, 's-weight', 8],
    ['shop type', { shop_type: 'SHOPIFY' }, 's-shop', 9],
  ])('%s', async (_name, event, step, amount) => {
    const p = await price({ event: 'SHIPPING', label_cost: 10, units: 1, ...event });
    expect(p).toMatchObject({ matched: true, pricing_step_id: step, calculated_amount: amount, category: 'SHIPPING', currency: 'EUR' });
    // Every rule evaluated is in the trace, only the winner matched.
    expect(p.events.filter((e: any) => e.matched).map((e: any) => e.step_id)).toEqual(['shipping', step]);
  });

  it('an event no condition holds for falls through to the fallback; out-of-range counts and weights do not match', async () => {
    const p = await price({ event: 'SHIPPING', label_cost: 10, units: 21, weight_g: 1999, zone: '7', order_tags: ['retail'] });
    expect(p).toMatchObject({ pricing_step_id: 's-default', calculated_amount: 11, original_amount: 10 });
  });
});

describe('prices', () => {
  it('percentage of the label cost with a minimum', async () => {
    expect((await price({ event: 'SHIPPING', label_cost: 3 })).calculated_amount).toBe(6);
  });

  it('tiered (graduated) and per unit', async () => {
    // 100 x 0.2 + 400 x 0.15 + 100 x 0.1
    expect(await price({ event: 'PICK', units: 600 })).toMatchObject({
      pricing_step_id: 'pick-tiered',
      calculated_amount: 90,
      quantity: 600,
    });
    expect(await price({ event: 'PICK', units: 7 })).toMatchObject({ pricing_step_id: 'pick-unit', calculated_amount: 2.1 });
  });

  it('per line, and no fee for an event the card has none for', async () => {
    expect(await price({ event: 'PACK', lines: 4, units: 9 })).toMatchObject({ calculated_amount: 0.8, quantity: 4 });
    expect(await price({ event: 'RETURN', units: 2 })).toMatchObject({ matched: false, calculated_amount: 0, pricing_step_id: null });
  });

  it('a card without a version in force yet, or of another team, is refused', async () => {
    const res = await t.call('POST', `/v1/ops/rate-cards/${cardId}/test`, {
      token,
      body: { event: { event: 'PICK', merchant_team_id: other, units: 1 }, at: '2019-06-01T00:00:00Z' },
    });
    expect(res.statusCode).toBe(409);
    expect((await t.call('GET', '/v1/ops/rate-cards/nope', { token })).statusCode).toBe(404);
  });
});

describe('priceStorage (the daily snapshot prices through it)', () => {
  const version = compileVersion({
    id: 'v1',
    rate_card_id: 'rc',
    rate_card_name: 'Conditions',
    semantic_version: '1.0.0',
    effective_at: new Date('2020-01-01T00:00:00Z'),
    currency: 'EUR',
    fees: FEES,
  });

  it('by location type per day: per occupied location, else per unit', () => {
    const pallets = priceStorage(version, { location_type: LT, locations: 3, units: 400, merchant: M, warehouse: W, date: '2026-01-05' });
    expect(pallets).toMatchObject({
      matched: true,
      pricing_step_id: 'store-pallet',
      calculated_amount: 2.7,
      quantity: 3,
      rate_period: 'DAILY',
      category: 'STORAGE',
    });
    expect(pallets.calculation_note).toMatch(/^2026-01-05: /);
    const shelf = priceStorage(version, { location_type: 'shelf', units: 250, merchant: M, warehouse: W, date: '2026-01-05' });
    expect(shelf).toMatchObject({ pricing_step_id: 'store-unit', calculated_amount: 2.5, quantity: 250 });
    // A per-unit fee cannot price a count of locations alone.
    expect(priceStorage(version, { location_type: 'shelf', locations: 2, merchant: M, warehouse: W, date: '2026-01-05' }).matched).toBe(
      false,
    );
  });
});
