import { readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

/**
 * Ids for `fos fulfill run --from <file|->`. Accepted, so any fos list output can be piped in:
 *   - a JSON array document: `["id1", "id2"]` or `[{"id": "…"}, …]` (what `--json id` prints when piped)
 *   - NDJSON: one object per line (`--format ndjson`)
 *   - plain ids, one or more per line (blank lines and `#` comments ignored)
 * In objects, `fulfillment_order_id` wins over `id`, which wins over `order_id`, so
 * `fos packages list`, `fos fulfillment-orders list` and `fos orders list` output all work.
 */
export type IdKind = 'fulfillment-order' | 'order' | 'any';

export interface IdRef {
  id: string;
  /** What the field name says the id is ('any' for plain ids and `id` fields). */
  kind: IdKind;
}

function fromValue(value: unknown, where: string): IdRef {
  if (typeof value === 'string' && value.trim()) return { id: value.trim(), kind: 'any' };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const pick = (k: string) => (typeof o[k] === 'string' && (o[k] as string).trim() ? (o[k] as string).trim() : undefined);
    const fo = pick('fulfillment_order_id');
    if (fo) return { id: fo, kind: 'fulfillment-order' };
    const id = pick('id');
    if (id) return { id, kind: 'any' };
    const order = pick('order_id');
    if (order) return { id: order, kind: 'order' };
  }
  throw new UsageError(`--from: ${where} has no id (expected a string, or an object with id, fulfillment_order_id or order_id)`);
}

export function parseIds(text: string): IdRef[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith('[')) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch (err) {
      throw new UsageError(`--from: input starts with "[" but is not a JSON array: ${(err as Error).message}`);
    }
    return (doc as unknown[]).map((v, i) => fromValue(v, `array element ${i}`));
  }
  const refs: IdRef[] = [];
  trimmed.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (line.startsWith('{') || line.startsWith('"')) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw new UsageError(`--from: line ${i + 1} is not valid JSON: ${(err as Error).message}`);
      }
      refs.push(fromValue(value, `line ${i + 1}`));
      return;
    }
    for (const token of line.split(/[\s,]+/)) if (token) refs.push({ id: token, kind: 'any' });
  });
  return refs;
}

/** Reads `--from` (a file, or `-` for stdin). */
export async function readIds(ctx: Context, source: string): Promise<IdRef[]> {
  let text: string;
  if (source === '-') {
    if (ctx.io.isStdinTTY)
      throw new UsageError(
        '--from - reads ids from stdin: pipe them in, e.g. `fos orders list --status OPEN --json id | fos fulfill run --from - …`',
      );
    text = await ctx.io.readStdin();
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (err) {
      throw new UsageError(`--from: cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return parseIds(text);
}

/** Drops repeated ids, keeping the first (and the most specific kind seen). */
export function uniqueIds(refs: IdRef[]): IdRef[] {
  const byId = new Map<string, IdRef>();
  for (const r of refs) {
    const seen = byId.get(r.id);
    if (!seen) byId.set(r.id, r);
    else if (seen.kind === 'any') seen.kind = r.kind;
  }
  return [...byId.values()];
}
