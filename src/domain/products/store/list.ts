import { sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { Db } from '../../../db/types.js';
import { dialectOf, type Dialect } from '../../../db/dialect.js';
import { readsOf } from '../../../db/reads.js';
import { cappedIds, FTS_CAP, ftsPhrase } from '../../fts.js';
import type { NamedLevel } from '../inventory.js';
import type { ProductRow } from '../present.js';

// The ops product list's page in ONE statement (issue 9, target 4): the rows with everything their
// records show besides the ledger's explanations (team names, bundle count, listing variants per
// platform, stock levels at the caller's warehouses), each row as one JSON object built by the
// database. Through Prisma that is one raw query instead of ten (Prisma costs ~100 µs of CPU a
// query and ~15-30 µs a materialised row; SQLite answers all of it in ~0.2 ms).
//
// This describes a product's columns a second time (the first is the Prisma model that
// presentOps reads). COLUMNS is typed by ProductRow, so a new column fails to compile until it is
// listed here, and test/api/products-list-sql.test.ts lists the same fixtures through both paths,
// on both databases, and wants deep-equal records.

type Kind = 'text' | 'float' | 'bool' | 'date' | 'json';

/** Every column of a list row (ProductRow without the detail views' components) and how to read it. */
const COLUMNS: Record<Exclude<keyof ProductRow, 'components'>, Kind> = {
  id: 'text',
  team_id: 'text',
  merchant_team_id: 'text',
  fulfiller_team_id: 'text',
  name: 'text',
  sku: 'text',
  description: 'text',
  barcode: 'text',
  mpn: 'text',
  manufacturer: 'text',
  image_url: 'text',
  type: 'text',
  length: 'float',
  width: 'float',
  height: 'float',
  weight: 'float',
  measurement_unit: 'text',
  weight_unit: 'text',
  cost_price: 'float',
  cost_currency: 'text',
  customs_value: 'float',
  customs_value_currency: 'text',
  customs_description: 'text',
  country_of_origin: 'text',
  hs_code: 'text',
  printed_commodity_identifier: 'text',
  eccn: 'text',
  is_hazmat: 'bool',
  category: 'text',
  subcategory: 'text',
  pick_fee_override: 'float',
  first_article_inspection_completed_at: 'date',
  config: 'json',
  increment_level: 'float',
  maximum_level: 'float',
  minimum_level: 'float',
  lot_tracked: 'bool',
  created_at: 'date',
  updated_at: 'date',
};

const texts = new Map<string, string[]>();

/**
 * Prisma.sql of the statement `build` writes with `?` placeholders, bound to `values` in order.
 * The text is built once per shape (`shape` names what it depends on): it is ~6 KB.
 */
function bind(shape: string, build: () => string, values: unknown[]): Sql {
  let parts = texts.get(shape);
  if (!parts) texts.set(shape, (parts = build().split('?')));
  if (parts.length !== values.length + 1) throw new Error(`products store: ${parts.length - 1} placeholders, ${values.length} values`);
  return sql(parts, ...values);
}

/**
 * The JSON of one row `p` of the page: its columns and what its record shows beside them. One
 * json_object of 44 pairs: SQLite takes at most 127 arguments a function, PostgreSQL 100 (past
 * that, split it and merge with json_patch / ||). The ordered aggregate needs SQLite 3.44 (libSQL
 * bundles 3.45).
 */
function rowJson(dialect: Dialect, warehouses: { filtered: boolean }): string {
  const d = dialect.jsonSql;
  const columns = Object.entries(COLUMNS).map(([name, kind]) => `'${name}', ${d.value(`p.${name}`, kind)}`);
  const teamName = (column: string) => `(SELECT t.name FROM teams t WHERE t.id = p.${column})`;
  const level = d.object(
    ['product_id', 'warehouse_id', 'warehouse_name', 'on_hand', 'committed', 'unavailable', 'on_order'].map(
      (f) => `'${f}', ${f === 'warehouse_name' ? 'w.name' : f === 'warehouse_id' ? 'w.id' : `l.${f}`}`,
    ),
  );
  const levelsFrom = `inventory_levels l JOIN warehouses w ON w.id = l.warehouse_id WHERE l.product_id = p.id AND w.team_id = ?${
    warehouses.filtered ? ` AND w.id IN (SELECT value FROM ${d.values})` : ''
  }`;
  const platforms = `(SELECT COALESCE(s.shop_type, 'MANUAL') AS platform, COUNT(*) AS n FROM product_listing_variants v LEFT JOIN shops s ON s.id = v.shop_id WHERE v.product_id = p.id GROUP BY COALESCE(s.shop_type, 'MANUAL')) g`;
  return d.object([
    ...columns,
    `'team_name', ${teamName('team_id')}`,
    `'fulfiller_team_name', ${teamName('fulfiller_team_id')}`,
    `'merchant_team_name', ${teamName('merchant_team_id')}`,
    `'bundles', (SELECT COUNT(*) FROM product_components c WHERE c.parent_product_id = p.id AND c.kind = 'VIRTUAL_BUNDLE')`,
    `'platforms', ${d.arrayOf(d.pair('g.platform', 'g.n'), platforms)}`,
    `'levels', ${d.arrayOf(level, levelsFrom, 'w.name, w.id')}`,
  ]);
}

/** A row of the page as the statement returns it: `j` is null for the row past the page (it only tells has_next_page). */
export interface PageRow {
  id: string;
  /** The sort key (created_at or updated_at) as an ISO string. */
  k: string;
  /** Text on SQLite; PostgreSQL's json, which Prisma parses itself. */
  j: string | RowJson | null;
}

/** What a page row's JSON holds, parsed. */
export type RowJson = ProductRow & {
  team_name: string | null;
  fulfiller_team_name: string | null;
  merchant_team_name: string | null;
  bundles: number;
  platforms: [string, number][];
  levels: NamedLevel[];
};

/**
 * Parses a page row's JSON into a ProductRow and its parts. Its dates stay the text the statement
 * wrote (strftime / to_char in Date#toISOString's form), which the response serializer writes as
 * it is: no Date per value (a page of 20 rows made ~80).
 */
export function parseRow(j: string | RowJson): RowJson {
  return typeof j === 'string' ? (JSON.parse(j) as RowJson) : j;
}

interface Presented {
  /** The caller's team: stock levels are those at its warehouses. */
  teamId: string;
  /** The warehouse_id filter (already narrowed to the caller's warehouses), if any. */
  warehouseIds?: string[];
}

/** The records' JSON of the given products, in the given order. */
function pageOfIds(d: Dialect, ids: string[], at: Presented): Sql {
  const filtered = Boolean(at.warehouseIds);
  return bind(
    `ids ${d.provider} ${filtered}`,
    () => `SELECT p.id AS id, '' AS k, ${rowJson(d, { filtered })} AS j
FROM ${d.jsonSql.idsTable} page JOIN products p ON p.id = page.id ORDER BY page.ord`,
    [...levelArgs(at), JSON.stringify(ids)],
  );
}

const levelArgs = (at: Presented) => (at.warehouseIds ? [at.teamId, JSON.stringify(at.warehouseIds)] : [at.teamId]);

export interface Walk {
  /** The caller's team and whether it reaches its delegated merchants' teams (a fulfiller). */
  teamId: string;
  fulfiller: boolean;
  /** team_id filter: only this team, if it is in reach. */
  onlyTeam?: string;
  key: 'created_at' | 'updated_at';
  dir: 'asc' | 'desc';
  skip: number;
  limit: number;
  /** The cursor's values (key, id): rows strictly after them. */
  after?: [Date, string];
}

/**
 * A page of the caller's products with no filter but team_id: the reach (the caller's team and,
 * for a fulfiller, its active delegated merchants'), one keyset walk per team of at most
 * skip + limit + 1 rows, merged and ordered by the database, and the records' JSON of the first
 * `limit` rows after `skip` (the next one only tells has_next_page).
 */
function pageOfWalk(d: Dialect, w: Walk): Sql {
  const only = w.onlyTeam !== undefined;
  const deep = w.skip > 0 && d.boundedOffsets;
  const args: unknown[] = [w.teamId, ...(w.fulfiller ? [w.teamId] : []), ...(only ? [w.onlyTeam] : [])];
  const after = w.after ? [w.after[0], w.after[0], w.after[0], w.after[1]] : [];
  if (deep) args.push(...after, w.skip + w.limit, ...after);
  else args.push(...after, w.skip + w.limit + 1);
  args.push(w.limit + 1, w.skip, w.skip + w.limit, ...levelArgs({ teamId: w.teamId }));
  return bind(
    `walk ${d.provider} ${w.fulfiller} ${only} ${w.key} ${w.dir} ${Boolean(w.after)} ${deep}`,
    () => {
      const delegated = w.fulfiller
        ? ' UNION SELECT merchant_team_id FROM fulfillment_delegations WHERE fulfiller_team_id = ? AND active = TRUE'
        : '';
      let reach = `SELECT CAST(? AS TEXT) AS id${delegated}`;
      if (only) reach = `SELECT id FROM (${reach}) t WHERE id = ?`;
      const [cmp, dir] = w.dir === 'asc' ? ['>', 'ASC'] : ['<', 'DESC'];
      const order = `p.${w.key} ${dir}, p.id ${dir}`;
      // As afterCursor: the non-strict bound on the key is for the planner (an index range).
      const cursor = (t: string) =>
        w.after ? ` AND ${t}.${w.key} ${cmp}= ? AND (${t}.${w.key} ${cmp} ? OR (${t}.${w.key} = ? AND ${t}.id ${cmp} ?))` : '';
      const inner = `q.team_id = r.id${cursor('q')}`;
      let walk = d.topRowsPer('reach r', 'products', 'p', `q.id, q.${w.key}`, inner, order.replaceAll('p.', 'q.'));
      let ctes = `reach AS (${reach})`;
      if (deep) {
        // An OFFSET page needs skip + limit + 1 rows of each team. Reading them as rows (a primary-key
        // lookup each: 65 ms for OFFSET 10,000 at 100,000 products on SQLite) is the cost; instead each
        // team's key at that depth (a covering index walk; its furthest key when it has fewer rows)
        // bounds an index range of its rows, and only the page's rows are read. Ties at the bound
        // come along too: the rows beyond it are ordered after the page anyway.
        const [edge, furthest] = w.dir === 'asc' ? ['<=', 'MAX'] : ['>=', 'MIN'];
        ctes += `, bound AS MATERIALIZED (SELECT r.id, COALESCE((SELECT q.${w.key} FROM products q WHERE ${inner} ORDER BY ${order.replaceAll('p.', 'q.')} LIMIT 1 OFFSET ?),
(SELECT ${furthest}(q.${w.key}) FROM products q WHERE q.team_id = r.id)) AS edge FROM reach r)`;
        walk = `bound b JOIN products p ON p.team_id = b.id AND p.${w.key} ${edge} b.edge${cursor('p')}`;
      }
      const page = `SELECT p.id, p.${w.key} AS k, ROW_NUMBER() OVER (ORDER BY ${order}) AS ord
FROM ${walk} ORDER BY ${order} LIMIT ? OFFSET ?`;
      return `WITH ${ctes}, page AS (${page})
SELECT p.id AS id, ${d.jsonSql.iso('page.k')} AS k, CASE WHEN page.ord <= ? THEN ${rowJson(d, { filtered: false })} END AS j
FROM page JOIN products p ON p.id = page.id ORDER BY page.ord`;
    },
    args,
  );
}

/** The records' JSON of a page without filters but team_id (pageOfWalk), in one statement. */
export const walkPageRows = (db: Db, w: Walk) => run(db, pageOfWalk(dialectOf(db.provider), w));

/** The records' JSON of the given products, in the given order (pageOfIds). */
export const idsPageRows = (db: Db, ids: string[], at: Presented) => run(db, pageOfIds(dialectOf(db.provider), ids, at));

/** SQLite: through the driver (src/db/reads.ts: no Prisma runtime per row); PostgreSQL: Prisma's raw query. */
const run = (db: Db, statement: Sql) =>
  db.provider === 'sqlite' ? readsOf(db).all<PageRow>(statement.sql, statement.values) : db.prisma.$queryRaw<PageRow[]>(statement);

const SEARCH =
  'SELECT s.product_id AS id FROM product_search f JOIN product_search_ids s ON s.id = f.rowid WHERE product_search MATCH ? LIMIT ?';

/** Ids of the products whose `column` contains `term` (SQLite's trigram index; src/domain/fts.ts), or undefined: use LIKE. */
export async function productSearchIds(db: Db, column: 'search_text' | 'name_sku_search_text', term: string) {
  const phrase = ftsPhrase(db, column, term);
  return phrase ? cappedIds(await db.prisma.$queryRawUnsafe<{ id: string }[]>(SEARCH, phrase, FTS_CAP + 1)) : undefined;
}

/** Few enough products stocked at a warehouse filter's warehouses to list them by id: see stockedAt. */
export const STOCKED_CAP = 500;

/**
 * The ids of the products with a stock level at `warehouses` when there are at most STOCKED_CAP
 * (SQLite; else undefined: opsWhere tests each product of the walk). SQLite walks the list's
 * order and tests every product against the filter, so a warehouse stocking a handful of products
 * read the whole catalogue (88 ms at 100,000); those ids are a few primary-key lookups and a sort.
 * PostgreSQL's statistics see how rare the warehouse is and plan the same itself.
 */
export async function stockedAt(db: Db, warehouses?: string[]) {
  if (!warehouses || db.provider !== 'sqlite') return undefined;
  // In warehouse order: SQLite then reads the warehouse index (in id order it scanned every level).
  const levels = await db.prisma.inventoryLevel.findMany({
    where: { warehouse_id: { in: warehouses } },
    orderBy: { warehouse_id: 'asc' },
    select: { product_id: true },
    take: STOCKED_CAP + 1,
  });
  return levels.length > STOCKED_CAP ? undefined : [...new Set(levels.map((l) => l.product_id))];
}
