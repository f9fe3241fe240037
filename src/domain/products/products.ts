import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { compareBy } from '../keyset.js';
import { csvList, pageArgs, pageWindow, toPage } from '../pagination.js';
import type { CreateProductInput, ProductInput } from './fields.js';
import { visibleWarehouses } from './inventory.js';
import { DETAIL_ROW, LIST_ROW, presentOps } from './present.js';
import { opsWhere, orderOf, searchMatches, type OpsListQuery } from './query.js';
import { delegatedMerchant, reachableTeamIds, type Caller, type Client } from './reach.js';
import { createProduct, updateProduct, type Owner } from './write.js';

// Products, ops family (spec 4.2): a fulfiller key reaches its own team's products and those of
// merchant teams delegated to it.

export async function listOpsProducts(db: Db, caller: Caller, q: OpsListQuery) {
  const warehouseFilter = csvList(q.warehouse_id);
  const [reach, warehouses, matched] = await Promise.all([
    reachableTeamIds(db.prisma, caller),
    warehouseFilter ? visibleWarehouses(db.prisma, caller.teamId, warehouseFilter) : undefined,
    searchMatches(db, 'products.search_text', q.search),
  ]);
  const warehouseIds = warehouses?.map((w) => w.id);
  const orderBy = orderOf(q);
  const rows = reach.length > 1 && !q.team_id && db.provider === 'sqlite'
    ? await mergedTeamPages(db, q, reach, (team) => opsWhere({ ...q, team_id: team }, reach, warehouseIds, matched), orderBy)
    : await db.prisma.product.findMany({ ...pageArgs(q, opsWhere(q, reach, warehouseIds, matched), orderBy), ...LIST_ROW });
  const page = toPage(rows, q, undefined, orderBy);
  const data = await presentOps(db.prisma, caller, page.data, { children: false, actions: true, warehouseIds });
  return { data, meta: page.meta };
}

/**
 * The rows of a page across the caller's teams. SQLite cannot walk the (team_id, created_at) index in
 * order for `team_id IN (…)`: it reads and sorts every product of every team (~100 ms at 100,000).
 * One ordered walk per team, each reading at most the rows up to the page, merged here, reads about a
 * page per team instead. (PostgreSQL keeps the single query: its text order of ids may differ from JS's.)
 * The walks read only the sort keys; the page's own rows are read once merged: Prisma spends more
 * building a whole product row than SQLite spends finding it (about 30 µs a row, ~1.5 ms a page).
 */
async function mergedTeamPages(
  db: Db, q: OpsListQuery, teams: string[], whereOf: (team: string) => ReturnType<typeof opsWhere>, orderBy: ReturnType<typeof orderOf>,
) {
  const { skip, take } = pageWindow(q);
  const keys = q.order_by === 'updated_at' ? { id: true, updated_at: true } as const : { id: true, created_at: true } as const;
  const lists = await Promise.all(teams.map((team) => db.prisma.product.findMany({
    ...pageArgs({ ...q, page: 0 }, whereOf(team), orderBy), skip: 0, take: skip + take, select: keys,
  })));
  const ids = lists.flat().sort(compareBy(orderBy)).slice(skip, skip + take).map((r) => r.id);
  if (!ids.length) return [];
  const rows = await db.prisma.product.findMany({ where: { id: { in: ids } }, ...LIST_ROW });
  return rows.sort(compareBy(orderBy));
}

async function loadOne(db: Db, caller: Caller, id: string, actions: boolean) {
  const reach = await reachableTeamIds(db.prisma, caller);
  const row = await db.prisma.product.findFirst({ where: { id, team_id: { in: reach } }, ...DETAIL_ROW });
  if (!row) throw notFound('Product', id);
  const [record] = await presentOps(db.prisma, caller, [row], { children: true, actions });
  return record;
}

export const getOpsProduct = (db: Db, caller: Caller, id: string) => loadOne(db, caller, id, true);

/**
 * Creates a product owned by the caller's team, or by merchant_team_id when that names a
 * merchant team delegated to the caller (404 otherwise); the fulfiller is the caller's team.
 */
export async function createOpsProduct(db: Db, caller: Caller, input: CreateProductInput) {
  const { merchant_team_id: merchantId, ...fields } = input;
  const reach = await reachableTeamIds(db.prisma, caller);
  const id = await createProduct(db, reach, fields, (tx) => opsOwner(tx, caller, merchantId));
  return loadOne(db, caller, id, false);
}

/** The owner of an ops-created product: the caller's team, or a merchant team delegated to it (404 otherwise). */
export async function opsOwner(tx: Client, caller: Caller, merchantId?: string | null): Promise<Owner> {
  if (!merchantId) {
    const team = await tx.team.findUniqueOrThrow({ where: { id: caller.teamId }, select: { measurement_system: true } });
    return { team_id: caller.teamId, merchant_team_id: null, fulfiller_team_id: caller.teamId, measurement_system: team.measurement_system };
  }
  const merchant = await delegatedMerchant(tx, caller.teamId, merchantId);
  return { team_id: merchant.id, merchant_team_id: merchant.id, fulfiller_team_id: caller.teamId, measurement_system: merchant.measurement_system };
}

export async function updateOpsProduct(db: Db, caller: Caller, id: string, input: ProductInput) {
  const reach = await reachableTeamIds(db.prisma, caller);
  await updateProduct(db, reach, id, input);
  return loadOne(db, caller, id, false);
}
