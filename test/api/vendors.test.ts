import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { createKey } from '../../src/domain/keys/keys.js';

// Vendors (spec 4.4, record 2.5): merchant keys; READ_VENDORS / WRITE_VENDORS.

const FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'vendor_name',
  'company_name',
  'address',
  'address_2',
  'city',
  'state',
  'zip_code',
  'country',
  'contact_person_name',
  'contact_email',
  'contact_phone',
  'internal_notes',
  'merchant_team_id',
  'merchant_team_name',
  'fulfiller_team_id',
  'fulfiller_team_name',
  'products',
].sort();

let t: TestApp;
let m: { teamId: string; token: string };
let other: { teamId: string; token: string };
let products: { id: string; name: string; sku: string }[];
let foreignProduct: string;

beforeAll(async () => {
  t = await testApp();
  const a = await t.merchant();
  m = { teamId: a.teamId, token: (await t.key({ teamId: a.teamId, tier: 4 })).token };
  const b = await t.merchant();
  other = { teamId: b.teamId, token: (await t.key({ teamId: b.teamId, tier: 4 })).token };
  products = [];
  for (const [name, sku] of [
    ['Zinc bolt', 'ZB-1'],
    ['Anchor', 'AN-1'],
    ['Mallet', 'MA-1'],
  ]) {
    const res = await t.call('POST', '/v1/merchant/products', { token: m.token, body: { name, sku, type: 'STANDARD' } });
    products.push(res.json());
  }
  foreignProduct = (
    await t.call('POST', '/v1/merchant/products', { token: other.token, body: { name: 'Foreign', type: 'STANDARD' } })
  ).json().id;
});
afterAll(() => t?.close());

const SPEC_BODY = {
  vendor_name: 'Bolt Supply',
  company_name: 'Bolt Supply LLC',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip_code: '62701',
  country: 'US',
};
const create = (body: object, token = m.token) => t.call('POST', '/v1/merchant/vendors', { token, body });
const patch = (id: string, body: object, token = m.token) => t.call('PATCH', `/v1/merchant/vendors/${id}`, { token, body });
const get = (id: string, token = m.token) => t.call('GET', `/v1/merchant/vendors/${id}`, { token });
async function made(body: object = SPEC_BODY) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
function expectInvalid(res: { statusCode: number; json(): any }, path: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().type).toBe('urn:fos:error:validation-failed');
  expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
}
const links = (vendorId: string) =>
  t.db.prisma.vendorProduct.findMany({ where: { vendor_id: vendorId } }).then((rows) => rows.map((r) => r.product_id).sort());

describe('create', () => {
  it("creates from the spec body for the caller's merchant team, fulfiller from its one delegation", async () => {
    const v = await made();
    expect(Object.keys(v).sort()).toEqual(FIELDS);
    expect(v).toMatchObject({
      ...SPEC_BODY,
      address_2: null,
      contact_person_name: null,
      contact_email: null,
      contact_phone: null,
      internal_notes: null,
      merchant_team_id: m.teamId,
      fulfiller_team_id: t.teamId,
      products: [],
    });
    expect(v.merchant_team_name).toMatch(/^Merchant /);
    expect(v.fulfiller_team_name).toEqual(expect.any(String));
    expect(v.created_at).toMatch(/Z$/);
    expect(await t.db.prisma.vendor.count({ where: { id: v.id, merchant_team_id: m.teamId } })).toBe(1);
  });

  it('needs only vendor_name; takes the optional fields and product_ids', async () => {
    const v = await made({
      vendor_name: 'Minimal',
      address_2: 'Suite 5',
      contact_person_name: 'Ann',
      contact_email: 'ann@example.com',
      contact_phone: '+1 555 0100',
      internal_notes: 'Net 30',
      product_ids: [products[0].id, products[1].id, products[0].id],
    });
    expect(v).toMatchObject({ vendor_name: 'Minimal', company_name: null, address_2: 'Suite 5', contact_email: 'ann@example.com' });
    expect(v.products).toEqual([
      { id: products[1].id, name: 'Anchor', sku: 'AN-1', image_url: null },
      { id: products[0].id, name: 'Zinc bolt', sku: 'ZB-1', image_url: null },
    ]);
  });

  it('leaves the fulfiller empty for a merchant team without a delegation', async () => {
    const lone = await teams.createTeam(t.db, { name: 'Lone', kind: 'MERCHANT' });
    const key = await createKey(t.db, lone.id, { name: 'k', power_role: 'ADMIN' }, null);
    const res = await create({ vendor_name: 'Solo' }, key.token);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      merchant_team_id: lone.id,
      merchant_team_name: 'Lone',
      fulfiller_team_id: null,
      fulfiller_team_name: null,
    });
  });

  it.each([
    ['a missing vendor_name', { company_name: 'X' }, 'body.vendor_name'],
    ['an empty vendor_name', { vendor_name: '' }, 'body.vendor_name'],
    ['an unknown field', { ...SPEC_BODY, website: 'x' }, 'body.website'],
    ['a numeric zip', { ...SPEC_BODY, zip_code: 62701 }, 'body.zip_code'],
    ['a bad email', { vendor_name: 'X', contact_email: 'not-an-email' }, 'body.contact_email'],
    ['a malformed product id', { vendor_name: 'X', product_ids: ['nope'] }, 'body.product_ids.0'],
  ])('rejects %s, writing nothing', async (_label, body, path) => {
    const before = await t.db.prisma.vendor.count();
    expectInvalid(await create(body), path);
    expect(await t.db.prisma.vendor.count()).toBe(before);
  });

  it("answers 404 for another team's product id and writes nothing", async () => {
    const before = await t.db.prisma.vendor.count();
    const res = await create({ vendor_name: 'Grabby', product_ids: [products[0].id, foreignProduct] });
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe('urn:fos:error:not-found');
    expect(await t.db.prisma.vendor.count()).toBe(before);
  });
});

describe('update', () => {
  it('changes only the fields sent and clears with null', async () => {
    const v = await made({ ...SPEC_BODY, internal_notes: 'old' });
    const res = await patch(v.id, { city: 'Chicago', internal_notes: null, contact_email: 'buyer@example.com' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(FIELDS);
    expect(res.json()).toMatchObject({ ...SPEC_BODY, city: 'Chicago', internal_notes: null, contact_email: 'buyer@example.com' });
    const row = await t.db.prisma.vendor.findUniqueOrThrow({ where: { id: v.id } });
    expect(row).toMatchObject({ city: 'Chicago', internal_notes: null, vendor_name: 'Bolt Supply' });
  });

  it('applies the product_ids rule: omitted keeps, an array replaces, [] removes all', async () => {
    const v = await made({ vendor_name: 'Linker', product_ids: [products[0].id] });
    expect(await links(v.id)).toEqual([products[0].id]);
    await patch(v.id, { vendor_name: 'Linker 2' });
    expect(await links(v.id)).toEqual([products[0].id]);
    const replaced = (await patch(v.id, { product_ids: [products[1].id, products[2].id] })).json();
    expect(replaced.products.map((p: any) => p.name)).toEqual(['Anchor', 'Mallet']);
    expect(await links(v.id)).toEqual([products[1].id, products[2].id].sort());
    const emptied = (await patch(v.id, { product_ids: [] })).json();
    expect(emptied.products).toEqual([]);
    expect(await links(v.id)).toEqual([]);
  });

  it('rolls back when a product id is out of reach', async () => {
    const v = await made({ vendor_name: 'Careful', product_ids: [products[0].id] });
    const res = await patch(v.id, { vendor_name: 'Changed', product_ids: [foreignProduct] });
    expect(res.statusCode).toBe(404);
    expect((await get(v.id)).json()).toMatchObject({ vendor_name: 'Careful' });
    expect(await links(v.id)).toEqual([products[0].id]);
  });

  it.each([
    ['a null vendor_name', { vendor_name: null }, 'body.vendor_name'],
    ['a team field', { merchant_team_id: '00000000-0000-7000-8000-000000000000' }, 'body.merchant_team_id'],
    ['products (use product_ids)', { products: [] }, 'body.products'],
  ])('rejects %s', async (_label, body, path) => {
    const v = await made();
    expectInvalid(await patch(v.id, body), path);
  });
});

describe('read and access', () => {
  it("lists the team's vendors newest first with paging, and gets one", async () => {
    const fresh = await t.merchant();
    const token = (await t.key({ teamId: fresh.teamId, tier: 4 })).token;
    const ids: string[] = [];
    for (const name of ['V1', 'V2', 'V3']) ids.push((await create({ vendor_name: name }, token)).json().id);
    for (const [i, id] of ids.entries()) {
      await t.db.prisma.vendor.update({ where: { id }, data: { created_at: new Date(Date.UTC(2026, 0, 1 + i)) } });
    }
    const all = (await t.call('GET', '/v1/merchant/vendors', { token })).json();
    expect(all.data.map((v: any) => v.vendor_name)).toEqual(['V3', 'V2', 'V1']);
    for (const v of all.data) expect(Object.keys(v).sort()).toEqual(FIELDS);
    expect(all.meta).toEqual({
      page: 0,
      page_size: 20,
      start_index: 1,
      end_index: 3,
      has_next_page: false,
      next_cursor: null,
      has_previous_page: false,
    });
    const page = (await t.call('GET', '/v1/merchant/vendors', { token, query: { limit: 2, page: 0, order: 'asc' } })).json();
    expect(page.data.map((v: any) => v.vendor_name)).toEqual(['V1', 'V2']);
    expect(page.meta).toMatchObject({ has_next_page: true, end_index: 2 });
    expectInvalid(await t.call('GET', '/v1/merchant/vendors', { token, query: { limit: 0 } }), 'query.limit');
    const one = await get(ids[1], token);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: ids[1], vendor_name: 'V2', merchant_team_id: fresh.teamId });
  });

  it("answers 404 for another team's vendor on read and update", async () => {
    const theirs = (await create({ vendor_name: 'Theirs' }, other.token)).json();
    expect((await get(theirs.id)).statusCode).toBe(404);
    const res = await patch(theirs.id, { vendor_name: 'Mine' });
    expect(res.statusCode).toBe(404);
    expect((await t.db.prisma.vendor.findUniqueOrThrow({ where: { id: theirs.id } })).vendor_name).toBe('Theirs');
    expectInvalid(await get('not-a-uuid'), 'params.vendor_id');
  });

  it('refuses fulfiller keys and keys lacking READ_VENDORS / WRITE_VENDORS', async () => {
    const v = await made();
    for (const [method, url, body] of [
      ['GET', '/v1/merchant/vendors', undefined],
      ['GET', `/v1/merchant/vendors/${v.id}`, undefined],
      ['POST', '/v1/merchant/vendors', SPEC_BODY],
      ['PATCH', `/v1/merchant/vendors/${v.id}`, { city: 'X' }],
    ] as const) {
      expect((await t.call(method, url, { token: t.adminToken, body })).statusCode).toBe(403);
    }
    const productsOnly = await t.key({ teamId: m.teamId, permissions: ['READ_PRODUCTS', 'WRITE_PRODUCTS'] });
    expect((await t.call('GET', '/v1/merchant/vendors', { token: productsOnly.token })).statusCode).toBe(403);
    const reader = await t.key({ teamId: m.teamId, permissions: ['READ_VENDORS'] });
    expect((await t.call('GET', '/v1/merchant/vendors', { token: reader.token })).statusCode).toBe(200);
    expect((await get(v.id, reader.token)).statusCode).toBe(200);
    const before = await t.db.prisma.vendor.count();
    const denied = await create(SPEC_BODY, reader.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toContain('WRITE_VENDORS');
    expect((await patch(v.id, { city: 'X' }, reader.token)).statusCode).toBe(403);
    expect(await t.db.prisma.vendor.count()).toBe(before);
    expect((await t.db.prisma.vendor.findUniqueOrThrow({ where: { id: v.id } })).city).toBe('Springfield');
  });
});
