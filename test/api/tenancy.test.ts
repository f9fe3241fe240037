import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createDelegation, createWarehouse } from '../../src/domain/teams/teams.js';
import { createKey } from '../../src/domain/keys/keys.js';
import { ADDRESS, line, world, type World } from './orders.fixtures.js';

// Cross-team isolation: a second FULFILLER team's ADMIN key sends every read and write with the
// first team's ids. Each answers 404 (never 403, never the record), and nothing changes.

let w: World;
let other: string; // ADMIN token of the second fulfiller team
let otherMerchant: string; // ADMIN token of a merchant delegated to the second team
let otherTeamId: string;
const a: Record<string, string> = {}; // ids of records of the first team
const b: Record<string, string> = {}; // ids of records of the second team

const RATE_CARD = {
  id: 'rc',
  name: 'Standard',
  version_id: 'v1',
  semantic_version: '1.0.0',
  currency: 'USD',
  storage: { rate_per_unit: { DAILY: 0.05, MONTHLY: 1.2 }, by_location_type: {} },
  receiving: { rate_per_unit: 0.25 },
};

async function ok(method: string, url: string, body?: unknown, status = 200, token?: string) {
  const res = await w.call(method, url, body, token);
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.body ? res.json() : null;
}

beforeAll(async () => {
  w = await world();
  const { t } = w;
  // Second fulfiller team with its own ADMIN key, merchant, warehouse, session, tote and role.
  const team = await createTeam(t.db, { name: 'Rival DC', kind: 'FULFILLER' });
  otherTeamId = team.id;
  other = (await createKey(t.db, team.id, { name: 'rival admin', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
  const m2 = await createTeam(t.db, { name: 'Rival merchant', kind: 'MERCHANT' });
  await createDelegation(t.db, { merchant_team_id: m2.id, fulfiller_team_id: team.id });
  otherMerchant = (await createKey(t.db, m2.id, { name: 'rival merchant', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
  await createWarehouse(t.db, { team_id: team.id, name: 'Rival WH' });
  b.session = (await ok('POST', '/v1/ops/picking-sessions', { name: 'rival walk' }, 201, other)).id;
  b.key = (await ok('GET', '/v1/me', undefined, 200, other)).key_id;
  b.vendor = (await ok('POST', '/v1/merchant/vendors', { vendor_name: 'Rival vendor' }, 201, otherMerchant)).id;
  b.product = (await ok('POST', '/v1/ops/products', { name: 'Rival bundle', type: 'VIRTUAL_BUNDLE' }, 201, other)).id;

  // First team: order -> fulfillment order -> package, and one record of every other kind.
  a.product = await w.product('TEN-1', { [w.east]: 10 });
  const order = await w.order({ line_items: [line('TEN-1', 2)], payment_status: 'PAID' }); // paid: no hold, so it can be packed
  a.order = order.id;
  const fos = await ok('GET', `/v1/ops/fulfillment-orders?order_id=${order.id}`);
  a.fo = fos.data[0].id;
  const fo = await ok('GET', `/v1/ops/fulfillment-orders/${a.fo}`);
  const foLine = fo.line_items[0];
  a.pkg = (
    await ok(
      'POST',
      '/v1/ops/packages',
      {
        fulfillment_order_id: a.fo,
        package_line_items: [{ sku: foLine.sku, quantity: 1, product_id: foLine.product_id }],
      },
      201,
    )
  ).id;
  a.draft = (await w.draft({ line_items: [line('TEN-1', 1)] })).id;
  a.rate = (
    await ok(
      'POST',
      '/v1/ops/carrier-rates',
      { carrier_id: 'ups', carrier_name: 'UPS', service_id: 'g', service_name: 'Ground', amount: 5 },
      201,
    )
  ).id;
  const billed = await t.merchant({ rate_card: RATE_CARD });
  a.delegation = billed.delegationId;
  a.charge = (
    await ok(
      'POST',
      '/v1/ops/charges/receiving',
      {
        fulfillment_delegation_id: billed.delegationId,
        data: { name: 'Dock', quantity: 4, purchase_order_id: 'PO-1' },
      },
      201,
    )
  ).id;
  a.file = (
    await ok('POST', '/v1/ops/files', { name: 'a.pdf', url: 'https://f.example/a.pdf', mimetype: 'application/pdf', size: 3 }, 201)
  ).id;
  a.tote = (await t.db.prisma.tote.create({ data: { team_id: t.teamId, name: 'Tote A' } })).id;
  a.session = (await ok('POST', '/v1/ops/picking-sessions', { name: 'walk' }, 201)).id;
  a.webhook = (await ok('POST', '/v1/webhooks', { url: 'https://hooks.example/a', events: ['*'] }, 201)).id;
  a.role = (await ok('POST', '/v1/roles', { name: 'everything', permissions: ['MANAGE_API_KEYS', 'READ_ORDERS'] }, 201)).id;
  a.key = (await ok('POST', '/v1/keys', { name: 'victim', power_role: 'MEMBER' }, 201)).id;
  const merchantA = (await createKey(t.db, w.merchantId, { name: 'merchant a', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
  a.vendor = (await ok('POST', '/v1/merchant/vendors', { vendor_name: 'Vendor A', product_ids: [a.product] }, 201, merchantA)).id;
});
afterAll(() => w?.t.close());

/** The response is a not-found problem that names none of the record's fields. */
function expectNotFound(res: { statusCode: number; body: string; json(): any }, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
  expect(res.json().type).toBe('urn:fos:error:not-found');
}

describe('another fulfiller team', () => {
  it('reads none of the records by id', async () => {
    const reads = [
      `/v1/ops/orders/${a.order}`,
      `/v1/ops/fulfillment-orders/${a.fo}`,
      `/v1/ops/packages/${a.pkg}`,
      `/v1/ops/draft-orders/${a.draft}`,
      `/v1/ops/charges/${a.charge}`,
      `/v1/ops/files/${a.file}`,
      `/v1/ops/products/${a.product}`,
      `/v1/webhooks/${a.webhook}`,
      `/v1/webhooks/${a.webhook}/deliveries`,
      `/v1/roles/${a.role}`,
      `/v1/keys/${a.key}`,
      `/v1/ops/picking-sessions/${a.session}`,
      `/v1/ops/v1/picking-sessions/${a.session}/fulfillment-orders`,
    ];
    for (const url of reads) expectNotFound(await w.call('GET', url, undefined, other), url);
    // Lists filtered by the other team's ids show nothing.
    for (const url of [`/v1/ops/fulfillment-orders?order_id=${a.order}`, `/v1/ops/packages?fulfillment_order_id=${a.fo}`]) {
      const res = await w.call('GET', url, undefined, other);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().data, url).toEqual([]);
    }
  });

  it('changes none of the records by id', async () => {
    const before = await snapshot();
    const writes: Array<[string, string, unknown?]> = [
      ['PATCH', `/v1/ops/packages/${a.pkg}`, { name: 'stolen', package_line_items: [{ sku: 'TEN-1', quantity: 1 }] }],
      [
        'POST',
        `/v1/ops/packages/${a.pkg}/label`,
        { label_url: 'https://x/l.pdf', tracking_number: 'T1', carrier: 'UPS', service: 'Ground', cost: 1, cost_currency: 'USD' },
      ],
      ['POST', `/v1/ops/packages/${a.pkg}/fulfill`, { locked_by: 'rival' }],
      ['POST', '/v1/ops/packages', { fulfillment_order_id: a.fo, package_line_items: [{ sku: 'TEN-1', quantity: 1 }] }],
      ['POST', `/v1/ops/fulfillment-orders/${a.fo}/accept`],
      ['POST', `/v1/ops/fulfillment-orders/${a.fo}/lock`, { lock_owner: 'rival', timeout_minutes: 5 }],
      ['POST', `/v1/ops/fulfillment-orders/${a.fo}/release`, { lock_owner: 'rival' }],
      ['DELETE', `/v1/ops/carrier-rates/${a.rate}`],
      ['PATCH', `/v1/ops/charges/receiving/${a.charge}`, { data: { quantity: 400 } }],
      [
        'POST',
        '/v1/ops/charges/receiving',
        { fulfillment_delegation_id: a.delegation, data: { name: 'x', quantity: 1, purchase_order_id: 'p' } },
      ],
      ['PATCH', `/v1/ops/files/${a.file}`, { name: 'stolen' }],
      ['POST', `/v1/ops/picking-sessions/${a.session}/fulfillment-orders`, { fulfillment_order_ids: [a.fo] }],
      ['POST', `/v1/ops/picking-sessions/${b.session}/fulfillment-orders`, { fulfillment_order_ids: [a.fo] }],
      ['PATCH', `/v1/webhooks/${a.webhook}`, { url: 'https://evil.example/' }],
      ['DELETE', `/v1/webhooks/${a.webhook}`],
      ['PATCH', `/v1/ops/products/${a.product}`, { name: 'stolen' }],
      ['PATCH', `/v1/ops/products/${b.product}`, { bundle_components: [{ component_product_id: a.product, component_quantity: 1 }] }],
      ['POST', `/v1/ops/draft-orders/${a.draft}/convert`],
      ['PATCH', `/v1/ops/orders/${a.order}/priority`, { priority: 'CRITICAL' }],
      ['POST', `/v1/ops/orders/${a.order}/mark-paid`],
      ['PATCH', `/v1/roles/${a.role}`, { name: 'stolen' }],
      ['DELETE', `/v1/roles/${a.role}`],
      ['POST', `/v1/keys/${a.key}/disable`],
      ['PUT', `/v1/keys/${a.key}/tier`, { tier: 4 }],
      ['PUT', `/v1/keys/${a.key}/roles`, { role_ids: [] }],
      ['PUT', `/v1/keys/${b.key}/roles`, { role_ids: [a.role] }],
      ['POST', '/v1/keys', { name: 'escalate', power_role: 'MEMBER', role_ids: [a.role] }],
      ['DELETE', `/v1/keys/${a.key}`],
    ];
    for (const [method, url, body] of writes) expectNotFound(await w.call(method, url, body, other), `${method} ${url}`);
    // The second team's tote is unknown to the first team's session, and vice versa.
    const tote = await w.call(
      'POST',
      `/v1/ops/picking-sessions/${b.session}/fulfillment-orders`,
      { fulfillment_order_ids: [], tote_id: a.tote },
      other,
    );
    expect([400, 404]).toContain(tote.statusCode);
    expect(await snapshot()).toEqual(before);
  });

  it("a merchant cannot reach another merchant's vendors or products", async () => {
    const before = await snapshot();
    expectNotFound(await w.call('GET', `/v1/merchant/vendors/${a.vendor}`, undefined, otherMerchant), 'vendor read');
    expectNotFound(await w.call('PATCH', `/v1/merchant/vendors/${a.vendor}`, { vendor_name: 'stolen' }, otherMerchant), 'vendor patch');
    expectNotFound(await w.call('PATCH', `/v1/merchant/vendors/${b.vendor}`, { product_ids: [a.product] }, otherMerchant), 'vendor link');
    expectNotFound(
      await w.call('POST', '/v1/merchant/vendors', { vendor_name: 'x', product_ids: [a.product] }, otherMerchant),
      'vendor create link',
    );
    expectNotFound(await w.call('GET', `/v1/merchant/products/${a.product}`, undefined, otherMerchant), 'product read');
    expectNotFound(await w.call('PATCH', `/v1/merchant/products/${a.product}`, { name: 'stolen' }, otherMerchant), 'product patch');
    expect(await snapshot()).toEqual(before);
    expect(await w.t.db.prisma.vendorProduct.count({ where: { product_id: a.product } })).toBe(1); // Vendor A's own link
  });
});

/** Everything the writes above could have touched. */
async function snapshot() {
  const p = w.t.db.prisma;
  const strip = <T extends object>(rows: T[]) => JSON.parse(JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  return {
    orders: strip(await p.order.findMany({ orderBy: { id: 'asc' } })),
    fos: strip(await p.fulfillmentOrder.findMany({ orderBy: { id: 'asc' } })),
    packages: strip(await p.package.findMany({ orderBy: { id: 'asc' }, include: { line_items: true } })),
    labels: await p.shippingLabel.count(),
    drafts: strip(await p.draftOrder.findMany({ orderBy: { id: 'asc' } })),
    rates: strip(await p.carrierRate.findMany({ orderBy: { id: 'asc' } })),
    charges: strip(await p.charge.findMany({ orderBy: { id: 'asc' } })),
    files: strip(await p.file.findMany({ orderBy: { id: 'asc' } })),
    webhooks: strip(await p.webhookEndpoint.findMany({ orderBy: { id: 'asc' } })),
    products: strip(await p.product.findMany({ orderBy: { id: 'asc' } })),
    components: await p.productComponent.count(),
    vendors: strip(await p.vendor.findMany({ orderBy: { id: 'asc' }, include: { products: true } })),
    roles: strip(await p.role.findMany({ orderBy: { id: 'asc' } })),
    keys: strip(await p.apiKey.findMany({ orderBy: { id: 'asc' }, include: { roles: true } })),
    ADDRESS: ADDRESS.name,
    otherTeamId,
  };
}
