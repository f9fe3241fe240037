import type { Provider } from './types.js';

// The one place that knows how SQLite's and PostgreSQL's SQL differ, for the stores' hand-written
// statements (src/domain/<area>/store*). A store writes each statement once, with `?`
// placeholders, and asks the dialect for what differs: the placeholder form, whether one writer
// holds the whole database, a row lock, and how a value comes back from a raw statement.

/** Pieces of SQL that build a JSON value inside a statement (the product list's page). */
export interface JsonSql {
  /** A column as a JSON value that reads back exactly as Prisma reads the column. */
  value(column: string, kind: 'text' | 'float' | 'bool' | 'date' | 'json'): string;
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
  /** A JSON array column holds `element` (a text expression) as one of its values. */
  arrayHas(column: string, element: string): string;
}

export interface Dialect {
  readonly provider: Provider;
  /**
   * SQLite: a writing transaction holds the whole database (one writer), so what a statement
   * reads through a subquery is what the transaction will see until it commits. PostgreSQL: a
   * statement reads its own snapshot, which can be older than a row lock it waited for.
   */
  readonly singleWriter: boolean;
  /** `sql` (with `?` placeholders) in this dialect's form: PostgreSQL numbers them ($1, $2 …). */
  text(sql: string): string;
  /** A statement that locks one row of `table` by its id (one parameter) until commit; null where a writer holds everything. */
  lockRow(table: string): string | null;
  /**
   * A statement that locks the rows of `table` matching `where` one after the other in id order
   * (the one global order, so two transactions never wait on each other in a cycle) until commit;
   * null where a writer holds everything. Run it before a multi-row UPDATE, whose own scan order is
   * the plan's (a sequential scan: the rows' physical order, which every update changes).
   */
  lockRowsInOrder(table: string, where: string): string | null;
  /** A Json column read through a subquery or raw statement: SQLite gives its text, PostgreSQL the value. */
  json(v: unknown): unknown;
  /**
   * A DateTime column read by a raw statement: SQLite gives its ISO text (UTC without a zone where
   * a column's SQL default, CURRENT_TIMESTAMP, wrote it: read as UTC, as Prisma reads it),
   * PostgreSQL a Date.
   */
  date(v: unknown): Date;
  /** A Boolean column read by a raw statement: SQLite gives 0/1 (a BigInt with safe integers), PostgreSQL a boolean. */
  bool(v: unknown): boolean;
  /** The placeholder of a Json value sent as its JSON text (PostgreSQL types it as jsonb). */
  readonly jsonParam: string;
  /**
   * The placeholder of a DateTime where the statement gives it no column to take its type from (a
   * CASE's branch): PostgreSQL would read it as text. SQLite takes it as it is (a CAST to a
   * TIMESTAMP type would make it a number).
   */
  readonly dateParam: string;
  /** A count or sum read by a raw statement: PostgreSQL's bigint comes back as a BigInt or a string. */
  int(v: unknown): number;
  /** Substring search has FTS5 trigram tables (SQLite); PostgreSQL serves LIKE '%term%' from pg_trgm indexes. */
  readonly trigramTables: boolean;
  /** Text compares by bytes (SQLite), as JS compares strings; PostgreSQL compares by its collation. */
  readonly bytewiseText: boolean;
  /**
   * `outer` joined with the first `limit` (a placeholder) rows of `table` matching `where`
   * (correlated with `outer`) in `order`, as `alias` with `columns`. SQLite cannot walk an index
   * in order for `x IN (…)`: a correlated IN per outer row reads only the rows up to the limit;
   * PostgreSQL does the same with a lateral join.
   */
  topRowsPer(outer: string, table: string, alias: string, columns: string, where: string, order: string): string;
  /**
   * Deep OFFSET pages are bounded by each walk's key at that depth (SQLite; PostgreSQL's planner
   * reads each bound with a sequential scan and a sort: 152 ms for OFFSET 10,000, against 38 ms
   * through the plain walks).
   */
  readonly boundedOffsets: boolean;
  /** Pieces that build JSON inside a statement (the product list's page). */
  readonly jsonSql: JsonSql;
  /**
   * A column of a WHERE term that only filters, never picks the index: SQLite's planner, which
   * has no statistics here, prefers an index on such a term (`status = 'PENDING'`, `delivered_at
   * IS NULL`) to the primary key of the statement's few ids, and reads every matching row (a
   * backlog of thousands per claim); `+column` takes the term out of its choice. PostgreSQL plans
   * by statistics: the column as it is.
   */
  filterOnly(column: string): string;
}

/**
 * Statement texts kept by a key of their shape, built once: the same text object comes back each
 * time, so the statement caches (kept by text) find it without hashing a new string of a few KB.
 * At `max` keys the lot is dropped (the shapes are a bounded set; this only caps a runaway).
 */
export function keptTexts(max: number): (key: string, build: (key: string) => string) => string {
  const texts = new Map<string, string>();
  return (key, build) => {
    let text = texts.get(key);
    if (text === undefined) {
      text = build(key);
      if (texts.size >= max) texts.clear();
      texts.set(key, text);
    }
    return text;
  };
}

const numbered = keptTexts(2000);

const numberPlaceholders = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** `?` -> `$n`, once per statement text (the texts are a bounded set: one per shape). */
const pgText = (sql: string): string => numbered(sql, numberPlaceholders);

const ZONED = /(?:Z|[+-]\d\d:?\d\d)$/i;
const date = (v: unknown) =>
  v instanceof Date ? v : new Date(typeof v === 'string' && !ZONED.test(v) ? `${v.replace(' ', 'T')}Z` : (v as string | number));
const bool = (v: unknown) => v === true || v === 1 || v === 1n;
const int = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0));

const SQLITE_JSON: JsonSql = {
  // SQLite's JSON writes a REAL with 15 significant digits (0.1 + 0.2 as 0.3); 17 read back
  // exactly. (printf writes NULL as 0.)
  value: (c, kind) =>
    kind === 'float'
      ? `CASE WHEN ${c} IS NULL THEN NULL ELSE json(printf('%!.17g', ${c})) END`
      : kind === 'bool'
        ? `json(CASE WHEN ${c} THEN 'true' ELSE 'false' END)`
        : kind === 'date'
          ? SQLITE_JSON.iso(c)
          : kind === 'json'
            ? `json(${c})`
            : c,
  iso: (e) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${e})`,
  object: (pairs) => `json_object(${pairs.join(', ')})`,
  pair: (a, b) => `json_array(${a}, ${b})`,
  values: 'json_each(?)',
  arrayOf: (element, from, orderBy) => `(SELECT json_group_array(${element}${orderBy ? ` ORDER BY ${orderBy}` : ''}) FROM ${from})`,
  idsTable: '(SELECT value AS id, key + 1 AS ord FROM json_each(?))',
  arrayHas: (column, element) => `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ${element})`,
};

const POSTGRES_JSON: JsonSql = {
  // float8, boolean and jsonb are JSON already; a NULL flag (lot_tracked before it was set) is false
  value: (c, kind) => (kind === 'date' ? POSTGRES_JSON.iso(c) : kind === 'bool' ? `COALESCE(${c}, false)` : c),
  iso: (e) => `to_char(${e}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  object: (pairs) => `json_build_object(${pairs.join(', ')})`,
  pair: (a, b) => `json_build_array(${a}, ${b})`,
  values: 'json_array_elements_text(CAST(? AS json))',
  arrayOf: (element, from, orderBy) =>
    `(SELECT COALESCE(json_agg(${element}${orderBy ? ` ORDER BY ${orderBy}` : ''}), '[]'::json) FROM ${from})`,
  idsTable: '(SELECT value AS id, ordinality AS ord FROM json_array_elements_text(CAST(? AS json)) WITH ORDINALITY)',
  // jsonb containment (a Json column is jsonb here)
  arrayHas: (column, element) => `${column} @> jsonb_build_array(${element})`,
};

const SQLITE: Dialect = {
  provider: 'sqlite',
  singleWriter: true,
  text: (sql) => sql,
  lockRow: () => null,
  lockRowsInOrder: () => null,
  json: (v) => (typeof v === 'string' ? JSON.parse(v) : (v ?? null)),
  jsonParam: '?',
  dateParam: '?',
  date,
  bool,
  int,
  trigramTables: true,
  bytewiseText: true,
  topRowsPer: (outer, table, alias, _columns, where, order) =>
    `${outer} JOIN ${table} ${alias} ON ${alias}.id IN (SELECT q.id FROM ${table} q WHERE ${where} ORDER BY ${order} LIMIT ?)`,
  boundedOffsets: true,
  jsonSql: SQLITE_JSON,
  filterOnly: (column) => `+${column}`,
};

const POSTGRESQL: Dialect = {
  provider: 'postgresql',
  singleWriter: false,
  text: pgText,
  lockRow: (table) => `SELECT 1 FROM "${table}" WHERE "id" = ? FOR UPDATE`,
  lockRowsInOrder: (table, where) => `SELECT "id" FROM "${table}" WHERE ${where} ORDER BY "id" FOR UPDATE`,
  json: (v) => v ?? null,
  jsonParam: 'CAST(? AS JSONB)',
  dateParam: 'CAST(? AS TIMESTAMP(3))',
  date,
  bool,
  int,
  trigramTables: false,
  bytewiseText: false,
  topRowsPer: (outer, table, alias, columns, where, order) =>
    `${outer} CROSS JOIN LATERAL (SELECT ${columns} FROM ${table} q WHERE ${where} ORDER BY ${order} LIMIT ?) ${alias}`,
  boundedOffsets: false,
  jsonSql: POSTGRES_JSON,
  filterOnly: (column) => column,
};

export const dialectOf = (provider: Provider): Dialect => (provider === 'sqlite' ? SQLITE : POSTGRESQL);

/**
 * A Date's text as a driver binds it, the last instant's text kept: a write binds the same instant
 * many times (a transaction's `now` in every row's created_at and updated_at), and building it was a
 * top entry of the fulfillment's profile. An invalid date (NaN) never matches: `format` sees it.
 */
export function lastInstantText(format: (d: Date) => string): (d: Date) => string {
  let lastTime = NaN;
  let lastText = '';
  return (d) => {
    const t = d.getTime();
    if (t !== lastTime) {
      lastText = format(d);
      lastTime = t;
    }
    return lastText;
  };
}

/** A nullable DateTime column read by a raw statement (see Dialect.date). */
export const dateOrNull = (d: Dialect, v: unknown): Date | null => (v === null || v === undefined ? null : d.date(v));

/** `?, ?, ?` for a list of n values (an IN list). */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * `CASE "<column>" WHEN ? THEN CAST(? AS INTEGER) … END`: a number per key, for one UPDATE that
 * moves several rows each by its own amount. Keys not listed give NULL, so the UPDATE's WHERE
 * must keep to the listed keys (or COALESCE). The cast types the values on PostgreSQL.
 */
export function caseBy(column: string, values: ReadonlyArray<readonly [key: string, n: number]>): { sql: string; params: unknown[] } {
  return {
    sql: `CASE "${column}" ${values.map(() => 'WHEN ? THEN CAST(? AS INTEGER)').join(' ')} END`,
    params: values.flatMap(([k, n]) => [k, n]),
  };
}
