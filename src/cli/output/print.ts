import type { Context } from '../context.js';
import { checkFields, getPath, pickFields } from './fields.js';
import { resolveOutput } from './format.js';
import { checkedOutput, markFieldsChecked } from './precheck.js';
import type { NestedView } from './table.js';

// Each output form's module loads when that form is asked for: `--json` (scripts, agents) loads
// neither tables, CSV, jq, templates nor the pager.
const table = () => import('./table.js');
const csv = () => import('../../shared/csv.js');
const jq = async (input: unknown, filter: string, tty: boolean) => (await import('./jq.js')).runJq(input, filter, tty);
const template = async (text: string) => (await import('./template.js')).compileTemplate(text);

/**
 * Printing results. Lists print their records (`data` rows, never the meta envelope) in every
 * format; `--json` prints the array of records. Iterables are written as they arrive, so
 * `--all` streams json/ndjson/csv without holding the list (tables collect, then print).
 */
export interface PrintOptions {
  /** Preferred table columns for lists (those present in the data are shown). */
  columns?: readonly string[];
  /** Columns a narrow terminal leaves out last (table.ts renderTable). */
  keep?: readonly string[];
}

/** How a record's lists show as tables on a terminal (table.ts NestedView), by field name. */
export type RecordViews = Record<string, NestedView>;

type Rows = Iterable<unknown> | AsyncIterable<unknown>;

const indent = (text: string) => text.replace(/^/gm, '  ');

/** `rows`, with the first record checked for the `--json` fields before anything is printed. */
async function* fieldsChecked(rows: Rows, fields: readonly string[]): AsyncIterable<unknown> {
  let first = true;
  for await (const r of rows) {
    if (first) checkFields(r, fields);
    first = false;
    yield r;
  }
}

/** Prints list records; returns how many were printed. */
export async function printList(ctx: Context, rows: Rows, opts: PrintOptions = {}): Promise<number> {
  const { format, fields } = await resolveOutput(ctx);
  const io = ctx.io;
  const select = (r: unknown) => (fields ? pickFields(r, fields) : r);
  let count = 0;
  if (fields && !checkedOutput(ctx)?.fieldsChecked) rows = fieldsChecked(rows, fields);

  if (ctx.options.template !== undefined) {
    const render = await template(ctx.options.template);
    for await (const r of rows) {
      await io.out(render(select(r)));
      count++;
    }
    return count;
  }

  if (ctx.options.jq !== undefined) {
    // jq reads the whole array (as `fos … --json | jq` would); there is no streaming filter.
    const all: unknown[] = [];
    for await (const r of rows) all.push(select(r));
    await io.out(await jq(all, ctx.options.jq, io.isStdoutTTY));
    return all.length;
  }

  if (format === 'table') {
    const all: unknown[] = [];
    const progress = Array.isArray(rows) ? undefined : io.progress();
    for await (const r of rows) {
      all.push(r);
      if (all.length % 50 === 0) progress?.update(`fetched ${all.length} records…`);
    }
    progress?.done();
    if (all.length === 0) {
      io.info('no records');
      return 0;
    }
    const { renderTable, tableColumns } = await table();
    await io.out(renderTable(io, all, fields ?? tableColumns(all, opts.columns), 0, opts.keep));
    return all.length;
  }

  if (format === 'csv') {
    const { csvLine } = await csv();
    let columns: readonly string[] | undefined = fields;
    if (!columns && Array.isArray(rows)) columns = [...new Set(rows.flatMap((r) => Object.keys(r ?? {})))];
    for await (const r of rows) {
      if (!columns) columns = Object.keys(r ?? {});
      if (count === 0) await io.out(csvLine(columns));
      await io.out(csvLine(columns.map((c) => getPath(r, c))));
      count++;
    }
    if (count === 0 && columns?.length) await io.out(csvLine(columns));
    return count;
  }

  if (format === 'ndjson') {
    for await (const r of rows) {
      await io.out(`${JSON.stringify(select(r))}\n`);
      count++;
    }
    return count;
  }

  // json: an array, written element by element; identical to JSON.stringify(array, null, 2).
  for await (const r of rows) {
    await io.out(`${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(select(r), null, 2))}`);
    count++;
  }
  await io.out(count === 0 ? '[]\n' : '\n]\n');
  return count;
}

/**
 * A write whose answer the CLI makes itself (an import's summary) checks `--json` against that
 * record's shape before it changes anything: an unknown field is a usage error, not a failure
 * after the rows were applied. `shape` has every member any of its answers has (a dry run's too);
 * one answer's missing members then print as null.
 */
export async function checkRecordFields(ctx: Context, shape: Record<string, unknown>): Promise<void> {
  checkFields(shape, (await resolveOutput(ctx)).fields);
  markFieldsChecked(ctx);
}

/** Prints one record (get, create, update responses); a member shown only once is never left out. */
export async function printRecord(ctx: Context, record: unknown, views?: RecordViews): Promise<void> {
  await showSecrets(ctx, record, await printOneRecord(ctx, record, views));
}

/**
 * A member the API returns only once (a key's token, a webhook's secret) that the output
 * options leave out (`--json id,name`, a `--jq` or `--template` whose text does not hold it) goes
 * to stderr: it cannot be fetched again. One that stdout got is not repeated there (scripts log stderr).
 */
async function showSecrets(ctx: Context, record: unknown, shapedText: string | undefined): Promise<void> {
  const checked = checkedOutput(ctx);
  if (!checked?.secrets.length) return;
  const { fields } = await resolveOutput(ctx);
  const shaped = ctx.options.jq !== undefined || ctx.options.template !== undefined;
  for (const path of checked.secrets) {
    const value = getPath(record, path);
    if (value === undefined || value === null) continue;
    const selected = shaped
      ? (shapedText ?? '').includes(String(value))
      : !fields || fields.some((f) => path === f || path.startsWith(`${f}.`));
    if (!selected) ctx.io.warn(`${path} (not in the selected output; shown only once: store it now): ${String(value)}`);
  }
}

/** Prints one record; returns the text a --template or --jq made of it (showSecrets looks in it). */
async function printOneRecord(ctx: Context, record: unknown, views?: RecordViews): Promise<string | undefined> {
  const { format, fields } = await resolveOutput(ctx);
  const io = ctx.io;
  const check = (r: unknown) => (checkedOutput(ctx)?.fieldsChecked ? undefined : checkFields(r, fields));
  const shaped = async (text: string) => (await io.out(text), text);
  if (ctx.options.template !== undefined) {
    check(record);
    return shaped((await template(ctx.options.template))(fields ? pickFields(record, fields) : record));
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    if (ctx.options.jq !== undefined) return shaped(await jq(record, ctx.options.jq, io.isStdoutTTY));
    await io.out(`${JSON.stringify(record, null, 2)}\n`);
    return;
  }
  const obj = record as Record<string, unknown>;
  check(obj);
  if (format === 'table') {
    const [{ paged }, { renderRecord }] = await Promise.all([import('./pager.js'), table()]);
    await paged(ctx, renderRecord(io, obj, fields, views));
    return;
  }
  if (format === 'csv') {
    const columns = fields ?? Object.keys(obj);
    const { csvLine } = await csv();
    await io.out(csvLine(columns) + csvLine(columns.map((c) => getPath(obj, c))));
    return;
  }
  const selected = fields ? pickFields(obj, fields) : obj;
  if (ctx.options.jq !== undefined) return shaped(await jq(selected, ctx.options.jq, io.isStdoutTTY));
  await io.out(format === 'ndjson' ? `${JSON.stringify(selected)}\n` : `${JSON.stringify(selected, null, 2)}\n`);
}

/** Prints whatever a command got back: arrays as lists, objects as records, nothing for empty bodies. */
export async function printResult(ctx: Context, data: unknown, opts: PrintOptions = {}): Promise<void> {
  if (data === undefined || data === '') return;
  if (Array.isArray(data)) {
    await printList(ctx, data, opts);
    return;
  }
  await printRecord(ctx, data);
}
