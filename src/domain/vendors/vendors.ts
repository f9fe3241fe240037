import type { Db, Vendor } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { teamNames } from '../names/index.js';
import { soleFulfillerOf, type Caller, type Client } from '../products/index.js';
import { transaction } from '../../db/tx.js';
import * as store from './store.js';

// Vendors (spec 4.4, record 2.5) of a merchant team. A vendor may be linked to products of the
// same merchant team; product_ids follows the components rule (omitted keeps the links, []
// removes all, an array replaces all).

type N<T> = T | null;

export interface VendorInput {
  vendor_name?: string;
  company_name?: N<string>;
  address?: N<string>;
  address_2?: N<string>;
  city?: N<string>;
  state?: N<string>;
  zip_code?: N<string>;
  country?: N<string>;
  contact_person_name?: N<string>;
  contact_email?: N<string>;
  contact_phone?: N<string>;
  internal_notes?: N<string>;
  product_ids?: string[];
}

export interface VendorListQuery extends PageRequest {
  order_by?: 'created_at' | 'updated_at';
  order?: 'asc' | 'desc';
}

type VendorRow = Vendor & { products: { product: { id: string; name: string; sku: string | null; image_url: string | null } }[] };

async function present(client: Client, rows: VendorRow[]) {
  const names = await teamNames(
    client,
    rows.flatMap((v) => [v.merchant_team_id, v.fulfiller_team_id]),
  );
  return rows.map((v) => ({
    id: v.id,
    created_at: v.created_at,
    updated_at: v.updated_at,
    vendor_name: v.vendor_name,
    company_name: v.company_name,
    address: v.address,
    address_2: v.address_2,
    city: v.city,
    state: v.state,
    zip_code: v.zip_code,
    country: v.country,
    contact_person_name: v.contact_person_name,
    contact_email: v.contact_email,
    contact_phone: v.contact_phone,
    internal_notes: v.internal_notes,
    merchant_team_id: v.merchant_team_id,
    merchant_team_name: names.get(v.merchant_team_id) ?? null,
    fulfiller_team_id: v.fulfiller_team_id,
    fulfiller_team_name: v.fulfiller_team_id ? (names.get(v.fulfiller_team_id) ?? null) : null,
    products: v.products.map((link) => link.product).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  }));
}

/** Makes the vendor's product links exactly product_ids; each must be a product of the team (404 otherwise). */
async function linkProducts(tx: Client, teamId: string, vendorId: string, productIds: string[]) {
  const wanted = [...new Set(productIds)];
  const found = wanted.length ? await store.findTeamProductIds(tx, teamId, wanted) : [];
  const known = new Set(found.map((p) => p.id));
  const missing = wanted.find((id) => !known.has(id));
  if (missing) throw notFound('Product', missing);
  await store.deleteProductLinksExcept(tx, vendorId, wanted);
  const existing = await store.findProductLinks(tx, vendorId);
  const have = new Set(existing.map((l) => l.product_id));
  const fresh = wanted.filter((id) => !have.has(id));
  if (fresh.length) await store.insertProductLinks(tx, vendorId, fresh);
}

export async function listVendors(db: Db, caller: Caller, q: VendorListQuery) {
  const dir = q.order ?? 'desc';
  const orderBy = [{ [q.order_by ?? 'created_at']: dir }, { id: dir }];
  const rows = await store.findVendorPage(db.prisma, pageArgs(q, { merchant_team_id: caller.teamId }, orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  return { data: await present(db.prisma, page.data), meta: page.meta };
}

export async function getVendor(db: Db, caller: Caller, id: string) {
  const row = await store.findTeamVendor(db.prisma, caller.teamId, id);
  if (!row) throw notFound('Vendor', id);
  return (await present(db.prisma, [row]))[0];
}

/** For the caller's merchant team; the fulfiller is its delegated fulfiller when it has exactly one. */
export async function createVendor(db: Db, caller: Caller, input: VendorInput & { vendor_name: string }) {
  const { product_ids, ...fields } = input;
  const id = await transaction(db, async (tx) => {
    const vendor = await store.insertVendor(tx, {
      ...fields,
      merchant_team_id: caller.teamId,
      fulfiller_team_id: await soleFulfillerOf(tx, caller.teamId),
    });
    if (product_ids) await linkProducts(tx, caller.teamId, vendor.id, product_ids);
    return vendor.id;
  });
  return getVendor(db, caller, id);
}

/** Partial update; the row is written first, so concurrent updates of one vendor serialize. */
export async function updateVendor(db: Db, caller: Caller, id: string, input: VendorInput) {
  const { product_ids, ...fields } = input;
  await transaction(db, async (tx) => {
    const locked = await store.updateTeamVendor(tx, caller.teamId, id, { ...fields, updated_at: new Date() });
    if (!locked.count) throw notFound('Vendor', id);
    if (product_ids) await linkProducts(tx, caller.teamId, id, product_ids);
  });
  return getVendor(db, caller, id);
}
