import { sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { Provider } from '../../db/types.js';
import type { NamedLevel } from './inventory.js';
import type { ProductRow } from './present.js';

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
const DATES = Object.entries(COLUMNS)
  .filter(([, kind]) => kind === 'date')
  .map(([name]) => name as keyof ProductRow);

interface Dialect {
  /** A column as a JSON value that reads back exactly as Prisma reads the column. */
  value(column: string, kind: Kind): string;
  /** A timestamp as Date#toISOString() writes it. */
  iso(expr: string): string;
  object(pairs: string[]): string;
  /** A two-element JSON array. */
  pair(a: string, b: string): string;
  /** The values of a JSON array of strings bound as one parameter, as a table of `value`. */
  values: string;
  /** JSON array of `element` over the rows of `from`, in `orderBy`; '[]' for none. */
  arrayOf(element: string, from: string, orderBy?: string): string;
  /** The rows of a JSON array of ids bound as one parameter: (id, ord), ord from 1. */
  idsTable: string;
  /** One team's keyset walk, correlated with the reach row `r`. */
  walk(inner: string, keyColumn: string, order: string): string;
}

const SQLITE: Dialect = {
  // SQLite's JSON writes a REAL with 15 significant digits (0.1 + 0.2 as 0.3); 17 read back
  // exactly. (printf writes NULL as 0.)
  value: (c, kind) =>
    kind === 'float'
      ? `CASE WHEN ${c} IS NULL THEN NULL ELSE json(printf('%!.17g', ${c})) END`
      : kind === 'bool'
        ? `json(CASE WHEN ${c} THEN 'true' ELSE 'false' END)`
        : kind === 'date'
          ? SQLITE.iso(c)
          : kind === 'json'
            ? `json(${c})`
            : c,
  iso: (e) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${e})`,
  object: (pairs) => `json_object(${pairs.join(', ')})`,
  pair: (a, b) => `json_array(${a}, ${b})`,
  values: 'json_each(?)',
  arrayOf: (element, from, orderBy) => `(SELECT json_group_array(${element}${orderBy ? ` ORDER BY ${orderBy}` : ''}) FROM ${from})`,
  idsTable: '(SELECT value AS id, key + 1 AS ord FROM json_each(?))',
  // SQLite cannot walk the (team_id, created_at) index in order for team_id IN (…) (it sorts every
  // row of every team); a correlated IN per team reads only the rows up to the page.
  walk: (inner, k, order) =>
    `reach r JOIN products p ON p.id IN (SELECT q.id FROM products q WHERE ${inner} ORDER BY ${order.replaceAll('p.', 'q.')} LIMIT ?)`,
};

const POSTGRES: Dialect = {
  // float8, boolean and jsonb are JSON already; a NULL flag (lot_tracked before it was set) is false
  value: (c, kind) => (kind === 'date' ? POSTGRES.iso(c) : kind === 'bool' ? `COALESCE(${c}, false)` : c),
  iso: (e) => `to_char(${e}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  object: (pairs) => `json_build_object(${pairs.join(', ')})`,
  pair: (a, b) => `json_build_array(${a}, ${b})`,
  values: 'json_array_elements_text(CAST(? AS json))',
  arrayOf: (element, from, orderBy) =>
    `(SELECT COALESCE(json_agg(${element}${orderBy ? ` ORDER BY ${orderBy}` : ''}), '[]'::json) FROM ${from})`,
  idsTable: '(SELECT value AS id, ordinality AS ord FROM json_array_elements_text(CAST(? AS json)) WITH ORDINALITY)',
  walk: (inner, k, order) =>
    `reach r CROSS JOIN LATERAL (SELECT q.id, q.${k} FROM products q WHERE ${inner} ORDER BY ${order.replaceAll('p.', 'q.')} LIMIT ?) p`,
};

const dialectOf = (provider: Provider) => (provider === 'sqlite' ? SQLITE : POSTGRES);

const texts = new Map<string, string[]>();

/**
 * Prisma.sql of the statement `build` writes with `?` placeholders, bound to `values` in order.
 * The text is built once per shape (`shape` names what it depends on): it is ~6 KB.
 */
function bind(shape: string, build: () => string, values: unknown[]): Sql {
  let parts = texts.get(shape);
  if (!parts) texts.set(shape, (parts = build().split('?')));
  if (parts.length !== values.length + 1) throw new Error(`list-sql: ${parts.length - 1} placeholders, ${values.length} values`);
  return sql(parts, ...values);
}

/**
 * The JSON of one row `p` of the page: its columns and what its record shows beside them. One
 * json_object of 44 pairs: SQLite takes at most 127 arguments a function, PostgreSQL 100 (past
 * that, split it and merge with json_patch / ||). The ordered aggregate needs SQLite 3.44 (libSQL
 * bundles 3.45).
 */
function rowJson(d: Dialect, warehouses: { filtered: boolean }): string {
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

/** Parses a page row's JSON into a ProductRow (dates as Date, as Prisma reads them) and its parts. */
export function parseRow(j: string | RowJson): RowJson {
  const row = typeof j === 'string' ? (JSON.parse(j) as RowJson) : j;
  for (const column of DATES) {
    const v = row[column] as unknown as string | null;
    if (v !== null) (row as Record<string, unknown>)[column] = new Date(v);
  }
  return row;
}

interface Presented {
  /** The caller's team: stock levels are those at its warehouses. */
  teamId: string;
  /** The warehouse_id filter (already narrowed to the caller's warehouses), if any. */
  warehouseIds?: string[];
}

/** The records' JSON of the given products, in the given order. */
export function pageOfIds(provider: Provider, ids: string[], at: Presented): Sql {
  const d = dialectOf(provider);
  const filtered = Boolean(at.warehouseIds);
  return bind(
    `ids ${provider} ${filtered}`,
    () => `SELECT p.id AS id, '' AS k, ${rowJson(d, { filtered })} AS j
FROM ${d.idsTable} page JOIN products p ON p.id = page.id ORDER BY page.ord`,
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
export function pageOfWalk(provider: Provider, w: Walk): Sql {
  const d = dialectOf(provider);
  const only = w.onlyTeam !== undefined;
  // SQLite only: PostgreSQL's planner reads each bound with a sequential scan and a sort (152 ms
  // for OFFSET 10,000, against 38 ms through the lateral walks).
  const deep = w.skip > 0 && provider === 'sqlite';
  const args: unknown[] = [w.teamId, ...(w.fulfiller ? [w.teamId] : []), ...(only ? [w.onlyTeam] : [])];
  const after = w.after ? [w.after[0], w.after[0], w.after[0], w.after[1]] : [];
  if (deep) args.push(...after, w.skip + w.limit, ...after);
  else args.push(...after, w.skip + w.limit + 1);
  args.push(w.limit + 1, w.skip, w.skip + w.limit, ...levelArgs({ teamId: w.teamId }));
  return bind(
    `walk ${provider} ${w.fulfiller} ${only} ${w.key} ${w.dir} ${Boolean(w.after)} ${deep}`,
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
      let walk = d.walk(inner, w.key, order);
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
SELECT p.id AS id, ${d.iso('page.k')} AS k, CASE WHEN page.ord <= ? THEN ${rowJson(d, { filtered: false })} END AS j
FROM page JOIN products p ON p.id = page.id ORDER BY page.ord`;
    },
    args,
  );
}
