import { UsageError } from '../errors.js';

/**
 * Stock lines typed as arguments: `MUG-BLUE:-2` (sku:delta) or `MUG-BLUE=40` (sku=figure). The
 * last separator splits, so SKUs may contain it; the figure is a whole number (deltas signed,
 * figures >= 0 or >= 1 as `min` says). Product ids go through --data '{"lines":[{"product_id":…}]}'.
 */
export function parseStockArgs(args: string[], sep: ':' | '=', key: string, min?: number): Record<string, unknown>[] {
  return args.map((raw) => {
    const at = raw.lastIndexOf(sep);
    const sku = at > 0 ? raw.slice(0, at) : '';
    const figure = at > 0 ? raw.slice(at + 1).trim() : '';
    const n = /^[+-]?\d+$/.test(figure) ? Number(figure) : NaN;
    if (!sku || !Number.isSafeInteger(n) || (min !== undefined && n < min) || (min === undefined && n === 0)) {
      const want = min === undefined ? 'a non-zero whole number, e.g. MUG-BLUE:-2' : `a whole number >= ${min}, e.g. MUG-BLUE${sep}12`;
      throw new UsageError(`"${raw}": expected SKU${sep}${key.toUpperCase()} with ${key} ${want}`);
    }
    return { sku, [key]: n };
  });
}

/** The lines of a body: from the arguments when given, else those of --data; at least one. */
export function withLines(body: Record<string, unknown>, lines: Record<string, unknown>[], example: string): Record<string, unknown> {
  const out = lines.length ? { ...body, lines: [...((body.lines as unknown[] | undefined) ?? []), ...lines] } : body;
  if (!Array.isArray(out.lines) || !out.lines.length) throw new UsageError(`pass at least one line, e.g. ${example}`);
  return out;
}

/** Receipt lines: `SKU=QTY` arguments are sellable, each `--damaged SKU=QTY` is DAMAGED; `extra` goes on every line. */
export function receiptLines(
  args: string[],
  damaged: string[] | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown>[] {
  return [
    ...parseStockArgs(args, '=', 'quantity', 1).map((l) => ({ ...l, ...extra })),
    ...parseStockArgs(damaged ?? [], '=', 'quantity', 1).map((l) => ({ ...l, ...extra, condition: 'DAMAGED' })),
  ];
}

export const DAMAGED_OPTION = [
  '--damaged <sku=quantity>',
  'units that arrived damaged: set aside as unavailable, in a DAMAGED location (repeatable)',
] as const;
