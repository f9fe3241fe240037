import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage } from '../pagination.js';
import type { ProductInput, ProductType } from './fields.js';
import { presentMerchant } from './present.js';
import { merchantWhere, orderOf, searchMatches, type MerchantListQuery } from './query.js';
import { soleFulfillerOf, type Caller } from './reach.js';
import { createProduct, updateProduct } from './write.js';
import * as records from './store/records.js';

// Products, merchant family (spec 4.3): a merchant key reaches the products its team owns.

export async function listMerchantProducts(db: Db, caller: Caller, q: MerchantListQuery) {
  const orderBy = orderOf(q);
  const matched = await searchMatches(db, 'name_sku_search_text', q.search);
  const rows = await records.findProductPage(db.prisma, pageArgs(q, merchantWhere(q, caller.teamId, matched), orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  return { data: page.data.map(presentMerchant), meta: page.meta };
}

export async function getMerchantProduct(db: Db, caller: Caller, id: string) {
  const row = await records.findTeamProduct(db.prisma, caller.teamId, id);
  if (!row) throw notFound('Product', id);
  return presentMerchant(row);
}

/** Owned by the caller's team; the fulfiller is its delegated fulfiller when it has exactly one. */
export async function createMerchantProduct(db: Db, caller: Caller, input: ProductInput & { name: string; type: ProductType }) {
  const id = await createProduct(db, [caller.teamId], input, async (tx) => {
    const team = await records.findTeamMeasurement(tx, caller.teamId);
    return {
      team_id: caller.teamId,
      merchant_team_id: caller.teamId,
      fulfiller_team_id: await soleFulfillerOf(tx, caller.teamId),
      measurement_system: team.measurement_system,
    };
  });
  return getMerchantProduct(db, caller, id);
}

export async function updateMerchantProduct(db: Db, caller: Caller, id: string, input: ProductInput) {
  await updateProduct(db, [caller.teamId], id, input);
  return getMerchantProduct(db, caller, id);
}
