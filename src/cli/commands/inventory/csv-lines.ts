import { UsageError } from '../../errors.js';
import { parse } from '../../shared/schema-csv.js';

// Spreadsheet rows -> adjustment lines for `fos inventory import`. Headers are matched without
// regard to case, spaces, dashes or underscores:
//   product      sku | product_id (one of them per row)
//   figure       counted | count | on_hand | quantity  -> counted (the on-hand figure counted)
//                delta | change | adjustment           -> delta (signed change)
// A file has either a counted or a delta column. Other columns are ignored. Every row is checked
// before anything is sent; all problems are reported with their row numbers (the header is row 1).

const ALIASES: Record<string, string[]> = {
  sku: ['sku'],
  product_id: ['productid', 'product'],
  counted: ['counted', 'count', 'onhand', 'quantity', 'qty'],
  delta: ['delta', 'change', 'adjustment'],
};

export interface ParsedLines {
  mode: 'counted' | 'delta';
  lines: Record<string, string | number>[];
  /** CSV row number (1 = header) of each line. */
  rows: number[];
}

const norm = (h: string) => h.toLowerCase().replace(/[\s_-]+/g, '');

export function parseLinesCsv(text: string): ParsedLines {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (err) {
    throw new UsageError(`not a readable CSV file: ${(err as Error).message}`);
  }
  if (!records.length) throw new UsageError('the file is empty: expected a header row (sku,counted or sku,delta) and rows');
  const header = records[0].map(norm);
  const col = (key: string) => header.findIndex((h) => ALIASES[key].includes(h));
  const idx = { sku: col('sku'), product_id: col('product_id'), counted: col('counted'), delta: col('delta') };
  if (idx.sku < 0 && idx.product_id < 0) throw new UsageError(`row 1: no sku or product_id column (headers: ${records[0].join(', ')})`);
  if (idx.counted < 0 === idx.delta < 0) {
    throw new UsageError(
      `row 1: expected exactly one figure column, counted (or count, on_hand, quantity) or delta (or change, adjustment); headers: ${records[0].join(', ')}`,
    );
  }
  const mode = idx.counted >= 0 ? 'counted' : 'delta';
  const problems: string[] = [];
  const lines: ParsedLines['lines'] = [];
  const rows: number[] = [];
  const seen = new Map<string, number>();
  records.slice(1).forEach((r, i) => {
    const row = i + 2;
    const sku = idx.sku >= 0 ? (r[idx.sku] ?? '') : '';
    const productId = idx.product_id >= 0 ? (r[idx.product_id] ?? '') : '';
    const raw = (r[idx[mode]] ?? '').replace(/^\+/, '');
    if (!sku && !productId) return problems.push(`row ${row}: no sku or product_id`);
    const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || (mode === 'counted' && n < 0)) {
      return problems.push(`row ${row}: ${mode} ${JSON.stringify(raw)} is not a whole number${mode === 'counted' ? ' >= 0' : ''}`);
    }
    if (mode === 'delta' && n === 0) return undefined; // nothing to change
    const key = productId ? `id:${productId}` : `sku:${sku}`;
    const first = seen.get(key);
    if (first !== undefined) return problems.push(`row ${row}: ${productId || sku} is already on row ${first}`);
    seen.set(key, row);
    lines.push({ ...(productId ? { product_id: productId } : { sku }), [mode]: n });
    rows.push(row);
    return undefined;
  });
  if (problems.length) {
    const shown = problems.slice(0, 20).join('\n  ');
    throw new UsageError(
      `${problems.length} row(s) cannot be imported, nothing was sent:\n  ${shown}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`,
    );
  }
  return { mode, lines, rows };
}
