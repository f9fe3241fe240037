import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { parseRateCard, validateRateCard } from '../../src/domain/charges/rate-card.js';

// Storage and receiving charges through HTTP: pricing from the delegation's rate card, the
// both-or-neither rule, receiving PATCH recompute, exact field sets, team isolation, permissions.

const CHARGE_FIELDS = [
  'id',
  'name',
  'description',
  'category',
  'currency',
  'quantity',
  'calculated_amount',
  'original_amount',
  'created_at',
  'updated_at',
  'merchant_team_id',
  'fulfiller_team_id',
  'fulfillment_delegation_id',
  'invoice_id',
  'order_id',
  'fulfillment_id',
  'fulfillment_order_id',
  'work_order_id',
  'return_id',
  'shipping_label_id',
  'purchase_order_id',
  'carrier_id',
  'carrier_integration_id',
  'carrier_integration_name',
  'carrier_integration_type',
  'service_id',
  'carton_id',
  'carton_name',
  'warehouse_id',
  'warehouse_name',
  'location_type_id',
  'location_type_name',
  'pricing_config',
  'pricing_trace',
].sort();

let t: TestApp;
let token: string; // ADMIN, tier 4: enough requests for the whole file
let merchant: { teamId: string; delegationId: string };
let bare: { teamId: string; delegationId: string }; // delegation without a rate card
let warehouse: { id: string; name: string };
let shelf: { id: string; name: string };
let pallet: { id: string; name: string };
let other: { teamId: string; token: string; delegationId: string; warehouseId: string };

const RATE_CARD = (palletId: string) => ({
  id: 'rc_std',
  name: 'Standard',
  version_id: 'v_3',
  semantic_version: '1.2.0',
  currency: 'EUR',
  storage: { rate_per_unit: { DAILY: 0.05, MONTHLY: 1.2 }, by_location_type: { [palletId]: { DAILY: 0.5 } } },
  receiving: { rate_per_unit: 0.25 },
});

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  warehouse = await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Main DC' });
  shelf = await teams.createLocationType(t.db, { team_id: t.teamId, name: 'Shelf' });
  pallet = await teams.createLocationType(t.db, { team_id: t.teamId, name: 'Pallet' });
  merchant = await t.merchant({ rate_card: RATE_CARD(pallet.id) });
  bare = await t.merchant();
  const otherTeam = await teams.createTeam(t.db, { name: 'Other DC', kind: 'FULFILLER' });
  const otherKey = await t.key({ teamId: otherTeam.id, tier: 4 });
  const otherMerchant = await teams.createTeam(t.db, { name: 'Other merchant', kind: 'MERCHANT' });
  const d = await teams.createDelegation(t.db, {
    merchant_team_id: otherMerchant.id,
    fulfiller_team_id: otherTeam.id,
    rate_card: RATE_CARD(pallet.id),
  });
  const w = await teams.createWarehouse(t.db, { team_id: otherTeam.id, name: 'Other WH' });
  other = { teamId: otherTeam.id, token: otherKey.token, delegationId: d.id, warehouseId: w.id };
});
afterAll(() => t?.close());

const storageBody = (over: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  fulfillment_delegation_id: merchant.delegationId,
  data: { name: 'June storage', location_type_id: shelf.id, warehouse_id: warehouse.id, rate_period: 'DAILY', quantity: 3, ...data },
  ...over,
});

describe('POST /v1/ops/charges/storage', () => {
  it('prices from the rate card and returns exactly the 2.8 fields', async () => {
    const res = await t.call('POST', '/v1/ops/charges/storage', { token, body: storageBody() });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(Object.keys(c).sort()).toEqual(CHARGE_FIELDS);
    expect(c).toMatchObject({
      name: 'June storage',
      category: 'STORAGE',
      currency: 'EUR',
      quantity: 3,
      calculated_amount: 0.15,
      original_amount: 0.15,
      merchant_team_id: merchant.teamId,
      fulfiller_team_id: t.teamId,
      fulfillment_delegation_id: merchant.delegationId,
      warehouse_id: warehouse.id,
      warehouse_name: 'Main DC',
      location_type_id: shelf.id,
      location_type_name: 'Shelf',
      order_id: null,
      purchase_order_id: null,
    });
    expect(c.created_at).toMatch(/Z$/);
    expect(c.pricing_config).toEqual({
      category: 'STORAGE',
      original_amount: 0.15,
      origination: 'MANUAL',
      shipping_label: null,
      order: null,
    });
    expect(c.pricing_trace).toEqual({
      rate_card_id: 'rc_std',
      rate_card_name: 'Standard',
      version_id: 'v_3',
      semantic_version: '1.2.0',
      category: 'STORAGE',
      decision: 'pricing_matched',
      trigger_step_id: 'storage',
      pricing_step_id: 'storage.rate_per_unit.DAILY',
      calculated_amount: 0.15,
      calculation_note: expect.any(String),
      pricing_config: { category: 'STORAGE', original_amount: 0.15, origination: 'MANUAL', shipping_label: null, order: null },
      events: [
        { event_type: 'trigger', step_id: 'storage', category: 'STORAGE', matched: true },
        { event_type: 'trigger', step_id: `storage.by_location_type.${shelf.id}.DAILY`, category: 'STORAGE', matched: false },
        { event_type: 'trigger', step_id: 'storage.rate_per_unit.DAILY', category: 'STORAGE', matched: true },
      ],
    });
    const row = await t.db.prisma.charge.findUniqueOrThrow({ where: { id: c.id } });
    expect(row).toMatchObject({ calculated_amount: 0.15, rate_period: 'DAILY', category: 'STORAGE' });
    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'charge.created' } });
    const forCharge = events.filter((e) => (e.payload as { id: string }).id === c.id);
    expect(forCharge.map((e) => e.team_id).sort()).toEqual([t.teamId, merchant.teamId].sort());
  });

  it('uses a location-type rate over the general one', async () => {
    const res = await t.call('POST', '/v1/ops/charges/storage', {
      token,
      body: storageBody({}, { location_type_id: pallet.id, quantity: 4 }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ calculated_amount: 2, location_type_name: 'Pallet' });
    expect(res.json().pricing_trace.pricing_step_id).toBe(`storage.by_location_type.${pallet.id}.DAILY`);
  });

  it('accepts merchant_team_id instead of the delegation id', async () => {
    const res = await t.call('POST', '/v1/ops/charges/storage', {
      token,
      body: storageBody(
        { fulfillment_delegation_id: undefined, merchant_team_id: merchant.teamId },
        { rate_period: 'MONTHLY', quantity: 2.5 },
      ),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ fulfillment_delegation_id: merchant.delegationId, calculated_amount: 3 });
  });

  it.each([
    ['both', { merchant_team_id: 'x' }],
    ['neither', { fulfillment_delegation_id: undefined }],
  ])('rejects %s of fulfillment_delegation_id / merchant_team_id with 400', async (_l, over) => {
    const before = await t.db.prisma.charge.count();
    const res = await t.call('POST', '/v1/ops/charges/storage', { token, body: storageBody(over) });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('urn:fos:error:validation-failed');
    expect(await t.db.prisma.charge.count()).toBe(before);
  });

  it('rejects invalid data with 400', async () => {
    for (const data of [{ quantity: 0 }, { rate_period: 'HOURLY' }, { extra: 1 }]) {
      const res = await t.call('POST', '/v1/ops/charges/storage', { token, body: storageBody({}, data) });
      expect(res.statusCode).toBe(400);
    }
  });

  it('answers 409 when the rate card cannot price the charge', async () => {
    const noRate = await t.call('POST', '/v1/ops/charges/storage', { token, body: storageBody({}, { rate_period: 'WEEKLY' }) });
    expect(noRate.statusCode).toBe(409);
    const noCard = await t.call('POST', '/v1/ops/charges/storage', {
      token,
      body: storageBody({ fulfillment_delegation_id: bare.delegationId }),
    });
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json().detail).toMatch(/rate card/);
  });

  it('answers 404 for delegations, merchants and warehouses of other teams', async () => {
    const cases = [
      storageBody({ fulfillment_delegation_id: other.delegationId }),
      storageBody({ fulfillment_delegation_id: undefined, merchant_team_id: other.teamId }),
      storageBody({}, { warehouse_id: other.warehouseId }),
      storageBody({}, { location_type_id: 'nope' }),
    ];
    for (const body of cases) {
      const res = await t.call('POST', '/v1/ops/charges/storage', { token, body });
      expect(res.statusCode).toBe(404);
      expect(res.json().type).toBe('urn:fos:error:not-found');
    }
  });
});

describe('receiving charges', () => {
  let chargeId: string;

  it('creates a receiving charge', async () => {
    const res = await t.call('POST', '/v1/ops/charges/receiving', {
      token,
      body: { fulfillment_delegation_id: merchant.delegationId, data: { name: 'PO 17 inbound', quantity: 40, purchase_order_id: 'po-17' } },
    });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(Object.keys(c).sort()).toEqual(CHARGE_FIELDS);
    expect(c).toMatchObject({ category: 'RECEIVING', quantity: 40, calculated_amount: 10, purchase_order_id: 'po-17', warehouse_id: null });
    expect(c.pricing_trace.pricing_step_id).toBe('receiving.rate_per_unit');
    chargeId = c.id;
  });

  it('requires fulfillment_delegation_id', async () => {
    const res = await t.call('POST', '/v1/ops/charges/receiving', {
      token,
      body: { data: { name: 'x', quantity: 1, purchase_order_id: 'p' } },
    });
    expect(res.statusCode).toBe(400);
  });

  it('PATCH recomputes the amounts', async () => {
    const res = await t.call('PATCH', `/v1/ops/charges/receiving/${chargeId}`, { token, body: { data: { quantity: 12 } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      quantity: 12,
      calculated_amount: 3,
      original_amount: 3,
      name: 'PO 17 inbound',
      purchase_order_id: 'po-17',
    });
    expect(res.json().pricing_trace.calculated_amount).toBe(3);
    const renamed = await t.call('PATCH', `/v1/ops/charges/receiving/${chargeId}`, {
      token,
      body: { data: { name: 'PO 18 inbound', purchase_order_id: 'po-18' } },
    });
    expect(renamed.json()).toMatchObject({ quantity: 12, calculated_amount: 3, name: 'PO 18 inbound', purchase_order_id: 'po-18' });
    const row = await t.db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } });
    expect(row).toMatchObject({ quantity: 12, calculated_amount: 3, name: 'PO 18 inbound' });
    expect(await t.db.prisma.outboxEvent.count({ where: { kind: 'charge.updated' } })).toBe(4);
  });

  it('PATCH refuses other categories (409), unknown ids and other teams (404), empty data (400)', async () => {
    const storage = (await t.call('POST', '/v1/ops/charges/storage', { token, body: storageBody() })).json();
    expect((await t.call('PATCH', `/v1/ops/charges/receiving/${storage.id}`, { token, body: { data: { quantity: 1 } } })).statusCode).toBe(
      409,
    );
    expect((await t.call('PATCH', '/v1/ops/charges/receiving/nope', { token, body: { data: { quantity: 1 } } })).statusCode).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/ops/charges/receiving/${chargeId}`, { token: other.token, body: { data: { quantity: 1 } } })).statusCode,
    ).toBe(404);
    expect((await t.call('PATCH', `/v1/ops/charges/receiving/${chargeId}`, { token, body: { data: {} } })).statusCode).toBe(400);
    expect((await t.db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).quantity).toBe(12);
  });
});

describe('GET /v1/ops/charges', () => {
  it('filters by category, merchant and order, and pages', async () => {
    const all = (await t.call('GET', '/v1/ops/charges', { token, query: { limit: 100 } })).json();
    expect(all.data.length).toBeGreaterThanOrEqual(5);
    expect(all.data.every((c: { fulfiller_team_id: string }) => c.fulfiller_team_id === t.teamId)).toBe(true);
    const times = all.data.map((c: { created_at: string }) => c.created_at);
    expect([...times].sort().reverse()).toEqual(times); // newest first by default

    const receiving = (await t.call('GET', '/v1/ops/charges', { token, query: { category: 'RECEIVING' } })).json();
    expect(receiving.data).toHaveLength(1);
    expect(receiving.data[0].category).toBe('RECEIVING');

    const none = (await t.call('GET', '/v1/ops/charges', { token, query: { merchant_team_id: bare.teamId } })).json();
    expect(none.data).toHaveLength(0);
    const mine = (await t.call('GET', '/v1/ops/charges', { token, query: { merchant_team_id: merchant.teamId } })).json();
    expect(mine.data).toHaveLength(all.data.length);

    const byOrder = (await t.call('GET', '/v1/ops/charges', { token, query: { order_id: '01900000-0000-7000-8000-000000000000' } })).json();
    expect(byOrder.data).toHaveLength(0);

    const p0 = (await t.call('GET', '/v1/ops/charges', { token, query: { limit: 2, order: 'asc' } })).json();
    const p1 = (await t.call('GET', '/v1/ops/charges', { token, query: { limit: 2, page: 1, order: 'asc' } })).json();
    expect(p0.meta).toEqual({
      page: 0,
      page_size: 2,
      start_index: 1,
      end_index: 2,
      has_next_page: true,
      next_cursor: expect.any(String),
      has_previous_page: false,
    });
    expect(p1.meta).toMatchObject({ page: 1, start_index: 3, end_index: 4, has_previous_page: true });
    expect(p0.data[0].id).toBe(all.data[all.data.length - 1].id);
    expect(new Set([...p0.data, ...p1.data].map((c: { id: string }) => c.id)).size).toBe(4);
    expect((await t.call('GET', '/v1/ops/charges', { token, query: { category: 'OTHER' } })).statusCode).toBe(400);
    expect((await t.call('GET', '/v1/ops/charges', { token, query: { limit: 101 } })).statusCode).toBe(400);
  });

  it('gets one; other teams get 404 and see none in lists', async () => {
    const [first] = (await t.call('GET', '/v1/ops/charges', { token })).json().data;
    const one = await t.call('GET', `/v1/ops/charges/${first.id}`, { token });
    expect(one.statusCode).toBe(200);
    expect(Object.keys(one.json()).sort()).toEqual(CHARGE_FIELDS);
    expect((await t.call('GET', `/v1/ops/charges/${first.id}`, { token: other.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/v1/ops/charges', { token: other.token })).json().data).toHaveLength(0);
  });
});

describe('permissions', () => {
  it('needs READ_CHARGES / WRITE_CHARGES and a fulfiller key', async () => {
    const reader = await t.key({ permissions: ['READ_CHARGES'] });
    const nobody = await t.key({ permissions: ['READ_FILES'] });
    expect((await t.call('GET', '/v1/ops/charges', { token: reader.token })).statusCode).toBe(200);
    expect((await t.call('POST', '/v1/ops/charges/storage', { token: reader.token, body: storageBody() })).statusCode).toBe(403);
    expect((await t.call('GET', '/v1/ops/charges', { token: nobody.token })).statusCode).toBe(403);
    const m = await t.merchant();
    const res = await t.call('GET', '/v1/ops/charges', { token: m.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('urn:fos:error:forbidden');
  });
});

describe('rate card format', () => {
  it('accepts the documented shape and reports problems by path', () => {
    expect(validateRateCard(RATE_CARD('lt1'))).toEqual([]);
    expect(parseRateCard({ id: 'a', name: 'b', version_id: 'c', semantic_version: '1.0.0' })?.currency).toBe('USD');
    const errors = validateRateCard({
      id: 'a',
      name: '',
      version_id: 'c',
      semantic_version: '1',
      storage: { rate_per_unit: { HOURLY: 1, DAILY: -1 } },
      receiving: { rate_per_unit: 'x' },
      shipping: { markup_percent: -150, by_service: { s1: { fee_per_package: -2 } } },
    }).map((e) => e.path);
    expect(errors.sort()).toEqual([
      'rate_card.name',
      'rate_card.receiving.rate_per_unit',
      'rate_card.shipping.by_service.s1.fee_per_package',
      'rate_card.shipping.markup_percent',
      'rate_card.storage.rate_per_unit.DAILY',
      'rate_card.storage.rate_per_unit.HOURLY',
    ]);
    expect(parseRateCard({ id: 'a' })).toBeNull();
    expect(parseRateCard(null)).toBeNull();
  });
});
