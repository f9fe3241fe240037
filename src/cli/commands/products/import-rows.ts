import { parse } from 'csv-parse/sync';
import { UsageError } from '../../errors.js';

// CSV rows -> product bodies for `fos products import`. Columns are the product fields of
// POST /v1/ops/products/bulk, read from its schema (the one source), matched ignoring case and
// with spaces or dashes as underscores (`Weight Unit` = weight_unit). Cells are typed by the
// schema (numbers, true/false); an empty cell leaves the field out. sku is required.

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; enum?: unknown[] };

const typeOf = (s: JsonSchema): string => {
  const types = s.anyOf ? s.anyOf.map(typeOf) : Array.isArray(s.type) ? s.type : [s.type ?? 'string'];
  return types.find((t) => t && t !== 'null') ?? 'string';
};

export interface ProductRows {
  products: Record<string, unknown>[];
  rows: number[];
}

export function parseProductsCsv(text: string, fields: Record<string, JsonSchema>): ProductRows {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (err) {
    throw new UsageError(`not a readable CSV file: ${(err as Error).message}`);
  }
  if (!records.length) throw new UsageError('the file is empty: expected a header row with sku and product fields');
  const header = records[0].map((h) => h.toLowerCase().replace(/[\s-]+/g, '_'));
  const unknown = header.filter((h) => !(h in fields));
  if (unknown.length) {
    throw new UsageError(`row 1: unknown column(s) ${unknown.join(', ')}; product columns are: ${Object.keys(fields).sort().join(', ')}`);
  }
  if (!header.includes('sku')) throw new UsageError('row 1: a sku column is required (products are matched by SKU)');
  const problems: string[] = [];
  const products: Record<string, unknown>[] = [];
  const rows: number[] = [];
  records.slice(1).forEach((r, i) => {
    const row = i + 2;
    const body: Record<string, unknown> = {};
    header.forEach((key, c) => {
      const raw = r[c] ?? '';
      if (raw === '') return;
      const type = typeOf(fields[key]);
      if (type === 'number' || type === 'integer') {
        const n = Number(raw);
        if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) problems.push(`row ${row}: ${key} ${JSON.stringify(raw)} is not a number`);
        else body[key] = n;
      } else if (type === 'boolean') {
        if (!/^(true|false|yes|no|1|0)$/i.test(raw)) problems.push(`row ${row}: ${key} ${JSON.stringify(raw)} is not true or false`);
        else body[key] = /^(true|yes|1)$/i.test(raw);
      } else if (type === 'string') {
        const allowed = fields[key].enum ?? fields[key].anyOf?.find((s) => s.enum)?.enum;
        const value = allowed ? allowed.find((v) => String(v).toLowerCase() === raw.toLowerCase()) : raw;
        if (value === undefined) problems.push(`row ${row}: ${key} ${JSON.stringify(raw)} is not one of ${allowed!.join(', ')}`);
        else body[key] = value;
      } else {
        problems.push(`row ${row}: ${key} cannot be imported from a spreadsheet; use fos products update --data`);
      }
    });
    if (!body.sku) problems.push(`row ${row}: no sku`);
    products.push(body);
    rows.push(row);
  });
  if (problems.length) {
    throw new UsageError(`${problems.length} problem(s), nothing was sent:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`);
  }
  return { products, rows };
}
