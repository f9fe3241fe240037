import { dialectOf } from '../../db/dialect.js';
import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { compareBy, cursorValues } from '../keyset.js';
import { csvList, pageArgs, pageWindow, toPage } from '../pagination.js';
import { PLATFORMS, type CreateProductInput, type Platform, type ProductInput } from './fields.js';
import { stockOf, visibleWarehouses } from './inventory.js';
import { idsPageRows, parseRow, stockedAt, walkPageRows, type PageRow, type Walk } from './store/list.js';
import { opsRecord, presentOps } from './present.js';
import { opsWhere, orderOf, parseTypes, searchMatches, searchTerm, type OpsListQuery } from './query.js';
import { delegatedMerchant, reachableTeamIds, type Caller, type Client } from './reach.js';
import { createProduct, updateProduct, type Owner } from './write.js';
import * as records from './store/records.js';

// Products, ops family (spec 4.2): a fulfiller key reaches its own team's products and those of
// merchant teams delegated to it.

export async function listOpsProducts(db: Db, caller: Caller, q: OpsListQuery) {
  const orderBy = orderOf(q);
  const walk = plainWalk(caller, q, orderBy);
  if (walk) {
    // The common list (no filter but team_id): reach, walks, page and its records in one statement
    // (store.ts). Otherwise Prisma picks the page's rows by their filters, and one statement
    // presents them.
    const rows = await walkPageRows(db, walk);
    const page = toPage(
      rows.map((r) => ({ id: r.id, [walk.key]: new Date(r.k) })),
      q,
      undefined,
      orderBy,
    );
    return { data: await opsRecords(db, rows.slice(0, q.limit)), meta: page.meta };
  }
  const warehouseFilter = csvList(q.warehouse_id);
  const [reach, warehouses, matched] = await Promise.all([
    reachableTeamIds(db.prisma, caller),
    warehouseFilter ? visibleWarehouses(db.prisma, caller.teamId, warehouseFilter) : undefined,
    searchMatches(db, 'search_text', q.search),
  ]);
  const warehouseIds = warehouses?.map((w) => w.id);
  const stocked = await stockedAt(db, warehouseIds);
  const keys = sortKeysOf(q);
  const rows =
    reach.length > 1 && !q.team_id
      ? await mergedTeamPages(db, q, reach, (team) => opsWhere({ ...q, team_id: team }, reach, warehouseIds, matched, stocked), orderBy)
      : await records.findProductKeys(db.prisma, {
          ...pageArgs(q, opsWhere(q, reach, warehouseIds, matched, stocked), orderBy),
          select: keys,
        });
  const page = toPage(rows, q, undefined, orderBy);
  const presented = page.data.length
    ? await idsPageRows(
        db,
        page.data.map((r) => r.id),
        { teamId: caller.teamId, warehouseIds },
      )
    : [];
  return { data: await opsRecords(db, presented), meta: page.meta };
}

/** The walk of pageOfWalk when the list has no filter but team_id (and a well-formed cursor, if any); else undefined. */
function plainWalk(caller: Caller, q: OpsListQuery, orderBy: ReturnType<typeof orderOf>): Walk | undefined {
  const filtered =
    searchTerm(q.search) !== undefined ||
    parseTypes(q.type) !== undefined ||
    csvList(q.warehouse_id) !== undefined ||
    q.id_prefix !== undefined ||
    q.has_image !== undefined ||
    q.has_barcode !== undefined ||
    q.has_remote_products !== undefined ||
    q.was_inspected !== undefined;
  if (filtered) return undefined;
  const after = q.cursor ? cursorValues(q.cursor, orderBy) : undefined;
  if (after && !(after[0] instanceof Date && typeof after[1] === 'string')) return undefined; // opsWhere says what it matches
  const { skip } = pageWindow(q);
  return {
    teamId: caller.teamId,
    fulfiller: caller.teamKind === 'FULFILLER',
    onlyTeam: q.team_id || undefined,
    key: q.order_by ?? 'created_at',
    dir: q.order ?? 'desc',
    skip,
    limit: q.limit,
    after: after as [Date, string] | undefined,
  };
}

const NO_VARIANTS = Object.fromEntries(PLATFORMS.map((k) => [k, 0])) as Record<Platform, number>;

/** Ops records of the page's rows as store.ts returns them (see opsRecord). */
async function opsRecords(db: Db, rows: PageRow[]) {
  const parsed = rows.map((r) => parseRow(r.j!));
  const stock = await stockOf(
    db.prisma,
    parsed.map((p) => p.id),
    parsed.flatMap((p) => p.levels),
  );
  return parsed.map((p) => {
    const variantCount = { ...NO_VARIANTS };
    for (const [platform, n] of p.platforms) variantCount[platform as Platform] += n;
    // opsRecord reads the row's columns by name: the parts riding along in p are not shown.
    return opsRecord(p, { names: p, stock: stock.get(p.id)!, bundles: p.bundles, variantCount }, true);
  });
}

const sortKeysOf = (q: OpsListQuery) =>
  q.order_by === 'updated_at' ? ({ id: true, updated_at: true } as const) : ({ id: true, created_at: true } as const);

/**
 * The sort keys of a page's rows across the caller's teams. Neither database walks the (team_id, created_at) index in
 * order for `team_id IN (…)`: each reads every matching product of every team and sorts them (SQLite ~100 ms at
 * 100,000; PostgreSQL 50-100 ms with a common filter such as has_image). One ordered walk per team, each reading at
 * most the rows up to the page, reads about a page per team instead, merged here. SQLite's order of ids is JS's
 * (bytes); PostgreSQL orders text by its collation, so when two teams' rows tie on the sort key it orders the
 * walks' rows itself (one more query, by primary key), as the single query did.
 */
async function mergedTeamPages(
  db: Db,
  q: OpsListQuery,
  teams: string[],
  whereOf: (team: string) => ReturnType<typeof opsWhere>,
  orderBy: ReturnType<typeof orderOf>,
) {
  const { skip, take } = pageWindow(q);
  const select = sortKeysOf(q);
  const lists = await Promise.all(
    teams.map((team) =>
      records.findProductKeys(db.prisma, {
        ...pageArgs({ ...q, page: 0 }, whereOf(team), orderBy),
        skip: 0,
        take: skip + take,
        select,
      }),
    ),
  );
  if (dialectOf(db.provider).bytewiseText)
    return lists
      .flat()
      .sort(compareBy(orderBy))
      .slice(skip, skip + take);
  // By the sort key alone: a stable sort keeps each walk's own (database) order among its ties, so
  // ids are compared only between two teams' rows with the same key. Then the database orders them.
  const field = q.order_by ?? 'created_at';
  const sign = (q.order ?? 'desc') === 'asc' ? 1 : -1;
  const at = (r: (typeof lists)[number][number]) => (r as Record<string, unknown>)[field] as Date;
  const tagged = lists.flatMap((list, team) => list.map((row) => ({ row, team, t: at(row).getTime() })));
  tagged.sort((a, b) => sign * (a.t - b.t));
  if (!tagged.some((x, i) => i > 0 && x.t === tagged[i - 1].t && x.team !== tagged[i - 1].team)) {
    return tagged.slice(skip, skip + take).map((x) => x.row);
  }
  return records.findProductKeys(db.prisma, {
    where: { id: { in: tagged.map((x) => x.row.id) } },
    orderBy: orderBy as never,
    skip,
    take,
    select,
  });
}

async function loadOne(db: Db, caller: Caller, id: string, actions: boolean) {
  const reach = await reachableTeamIds(db.prisma, caller);
  const row = await records.findDetailRow(db.prisma, reach, id);
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
    const team = await records.findTeamMeasurement(tx, caller.teamId);
    return {
      team_id: caller.teamId,
      merchant_team_id: null,
      fulfiller_team_id: caller.teamId,
      measurement_system: team.measurement_system,
    };
  }
  const merchant = await delegatedMerchant(tx, caller.teamId, merchantId);
  return {
    team_id: merchant.id,
    merchant_team_id: merchant.id,
    fulfiller_team_id: caller.teamId,
    measurement_system: merchant.measurement_system,
  };
}

export async function updateOpsProduct(db: Db, caller: Caller, id: string, input: ProductInput) {
  const reach = await reachableTeamIds(db.prisma, caller);
  await updateProduct(db, reach, id, input);
  return loadOne(db, caller, id, false);
}
