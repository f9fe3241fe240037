import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';

export { parse };

// CSV rows -> request bodies, typed by the API schema that documents them (the one source):
// `fos products import` (the product fields of POST /v1/ops/products/bulk) and `fos labels
// import-invoice` (the lines of POST /v1/ops/carrier-invoices). Headers match field names
// ignoring case, with spaces or dashes as underscores (`Weight Unit` = weight_unit). Cells are
// typed by the schema (numbers, true/false, enums in any case); an empty cell leaves the field
// out. Every row is checked before anything is sent; problems are reported by row number.

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; enum?: unknown[] };

const typeOf = (s: JsonSchema): string => {
  const types = s.anyOf ? s.anyOf.map(typeOf) : Array.isArray(s.type) ? s.type : [s.type ?? 'string'];
  return types.find((t) => t && t !== 'null') ?? 'string';
};

export interface SchemaRows {
  bodies: Record<string, unknown>[];
  /** CSV row number (1 = header) of each body. */
  rows: number[];
}

export interface CsvSpec {
  /** Columns every file must have (and every row must fill). */
  required: string[];
  /** What the rows are, for messages: "product", "invoice". */
  what: string;
  /** Told after an unknown column, e.g. how to set a field that cannot come from a spreadsheet. */
  instead: string;
}

/** A cell that cannot become its column's value: what is wrong with it (after "row N: <column> "). */
class Problem {
  constructor(readonly message: string) {}
}

/** The column's cell -> value function, by the type its schema gives. */
function converterOf(key: string, schema: JsonSchema, spec: CsvSpec): { key: string; convert: (raw: string) => unknown } {
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    return {
      key,
      convert: (raw) => {
        const n = Number(raw);
        return !Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))
          ? new Problem(`${JSON.stringify(raw)} is not a number`)
          : n;
      },
    };
  }
  if (type === 'boolean') {
    return {
      key,
      convert: (raw) =>
        /^(true|false|yes|no|1|0)$/i.test(raw) ? /^(true|yes|1)$/i.test(raw) : new Problem(`${JSON.stringify(raw)} is not true or false`),
    };
  }
  if (type === 'string') {
    const allowed = schema.enum ?? schema.anyOf?.find((s) => s.enum)?.enum;
    if (!allowed) return { key, convert: (raw) => raw };
    const byFolded = new Map(allowed.map((v) => [String(v).toLowerCase(), v]));
    return {
      key,
      convert: (raw) => byFolded.get(raw.toLowerCase()) ?? new Problem(`${JSON.stringify(raw)} is not one of ${allowed.join(', ')}`),
    };
  }
  return { key, convert: () => new Problem(`cannot be imported from a spreadsheet; ${spec.instead}`) };
}

export function parseSchemaCsv(text: string, fields: Record<string, JsonSchema>, spec: CsvSpec): SchemaRows {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (err) {
    throw new UsageError(`not a readable CSV file: ${(err as Error).message}`);
  }
  if (!records.length)
    throw new UsageError(`the file is empty: expected a header row with ${spec.required.join(', ')} and ${spec.what} fields`);
  const header = records[0].map((h) => h.toLowerCase().replace(/[\s-]+/g, '_'));
  const unknown = header.filter((h) => !(h in fields));
  if (unknown.length) {
    throw new UsageError(
      `row 1: unknown column(s) ${unknown.join(', ')}; ${spec.what} columns are: ${Object.keys(fields).sort().join(', ')}`,
    );
  }
  const absent = spec.required.filter((k) => !header.includes(k));
  if (absent.length) throw new UsageError(`row 1: required column(s) missing: ${absent.join(', ')}`);
  const problems: string[] = [];
  const bodies: Record<string, unknown>[] = [];
  const rows: number[] = [];
  // Each column's conversion, decided once from the schema (not per cell: 10,000 rows of five
  // columns are 50,000 cells).
  const converters = header.map((key) => converterOf(key, fields[key], spec));
  records.slice(1).forEach((r, i) => {
    const row = i + 2;
    const body: Record<string, unknown> = {};
    for (let c = 0; c < converters.length; c++) {
      const raw = r[c] ?? '';
      if (raw === '') continue;
      const { key, convert } = converters[c];
      const value = convert(raw);
      if (value instanceof Problem) problems.push(`row ${row}: ${key} ${value.message}`);
      else body[key] = value;
    }
    for (const k of spec.required) if (body[k] === undefined) problems.push(`row ${row}: no ${k}`);
    bodies.push(body);
    rows.push(row);
  });
  if (problems.length) {
    throw new UsageError(
      `${problems.length} problem(s), nothing was sent:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`,
    );
  }
  return { bodies, rows };
}
