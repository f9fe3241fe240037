import type { Provider } from './types.js';

// The one place that knows how SQLite's and PostgreSQL's SQL differ, for the stores' hand-written
// statements (src/domain/<area>/store*). A store writes each statement once, with `?`
// placeholders, and asks the dialect for what differs: the placeholder form, whether one writer
// holds the whole database, a row lock, and how a value comes back from a raw statement.

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
  /** A Json column read through a subquery or raw statement: SQLite gives its text, PostgreSQL the value. */
  json(v: unknown): unknown;
  /** A DateTime column read by a raw statement: SQLite gives its ISO text, PostgreSQL a Date. */
  date(v: unknown): Date;
  /** The placeholder of a Json value sent as its JSON text (PostgreSQL types it as jsonb). */
  readonly jsonParam: string;
  /** A count or sum read by a raw statement: PostgreSQL's bigint comes back as a BigInt or a string. */
  int(v: unknown): number;
}

const numbered = new Map<string, string>();

/** `?` -> `$n`, once per statement text (the texts are a bounded set: one per shape). */
function pgText(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (numbered.size >= 2000) numbered.clear();
    numbered.set(sql, text);
  }
  return text;
}

const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string | number));
const int = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0));

const SQLITE: Dialect = {
  provider: 'sqlite',
  singleWriter: true,
  text: (sql) => sql,
  lockRow: () => null,
  json: (v) => (typeof v === 'string' ? JSON.parse(v) : (v ?? null)),
  jsonParam: '?',
  date,
  int,
};

const POSTGRESQL: Dialect = {
  provider: 'postgresql',
  singleWriter: false,
  text: pgText,
  lockRow: (table) => `SELECT 1 FROM "${table}" WHERE "id" = ? FOR UPDATE`,
  json: (v) => v ?? null,
  jsonParam: 'CAST(? AS JSONB)',
  date,
  int,
};

export const dialectOf = (provider: Provider): Dialect => (provider === 'sqlite' ? SQLITE : POSTGRESQL);

/** `?, ?, ?` for a list of n values (an IN list). */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
