import { Command } from 'commander';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';
import { checkRecordFields, printRecord } from '../../output/print.js';
import { readReference } from '../../shared/body.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { declareOutput, own } from '../../output/shape.js';
import type { Static } from 'typebox';
import type { BulkProductsResult } from '../../../contract/products.js';

// `fos products import products.csv`: rows upserted by SKU through POST /v1/ops/products/bulk,
// 1,000 per request, two in flight (IN_FLIGHT). Rows the server refuses are reported with their CSV row numbers; the others
// are applied (each request is one transaction on the server). Exit 0 when every row applied, 1
// when some failed (the summary on stdout lists them). Each request carries an Idempotency-Key of
// this run and chunk, so the client's retry after a lost answer is answered, not applied twice; a
// new run applies the file again (an upsert: SKUs created by an earlier run are updated).

const BATCH = 1000;
/**
 * Requests in flight at once when no SKU is in two of them (ignoring case): while the server
 * writes one, the next is on its way and read (issue 36: one after the other, the server waited
 * on the CLI and the CLI on the server). A file naming a SKU in two chunks is sent one request
 * after the other, in file order, so a later row updates what an earlier one created.
 */
const IN_FLIGHT = 2;

type BulkAnswer = Static<typeof BulkProductsResult>;

export default function productsImport(ctx: Context): Command {
  const cmd = new Command('import')
    .description('Create or update products from a CSV file, matched by SKU (1,000 rows per request)')
    .argument('<file>', 'CSV file with a header row (sku plus product fields), or - for stdin')
    .option('--merchant-team <id>', 'the products of this delegated merchant team (default: your team)')
    .option('--dry-run', 'check the file, send nothing');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts();
    const [file] = command.processedArgs as string[];
    const text = file === '-' ? await ctx.io.readStdin() : await readReference(ctx, `@${file}`, '<file>');
    // The columns come from the API's own schema (loaded only here, so `fos --help` stays light).
    const { BulkProductsBody } = await import('../../../contract/products.js');
    const fields = (BulkProductsBody.properties.products.items as unknown as { properties: Record<string, never> }).properties;
    const { parseSchemaCsv } = await import('../../shared/schema-csv.js');
    const { bodies: products, rows } = parseSchemaCsv(text, fields, {
      required: ['sku'],
      what: 'product',
      instead: 'use fos products update --data',
    });
    if (!products.length) throw new UsageError('the file has a header but no rows');
    const summary = {
      file,
      rows: products.length,
      requests: Math.ceil(products.length / BATCH),
      created: 0,
      updated: 0,
      failed: 0,
      failures: [] as { row: number; sku: string; detail: string }[],
    };
    await checkRecordFields(ctx, summary);
    if (opts.dryRun) {
      ctx.io.info(`dry run: ${products.length} row(s) in ${summary.requests} request(s); nothing sent`);
      await printRecord(ctx, { ...summary, dry_run: true });
      return;
    }
    const client = ctx.client();
    const progress = ctx.io.progress();
    const run = globalThis.crypto.randomUUID(); /* the Web Crypto global: loaded when used, not at start-up */
    const send = (chunk: number) => {
      const body = {
        ...(opts.merchantTeam ? { merchant_team_id: opts.merchantTeam } : {}),
        products: products.slice(chunk * BATCH, (chunk + 1) * BATCH),
      };
      return client.request<BulkAnswer>('POST', '/ops/products/bulk', { body, idempotencyKey: `fos-products-import-${run}-${chunk + 1}` });
    };
    let answers: BulkAnswer[];
    try {
      answers = await inTurn(summary.requests, chunksShareNoSku(products) ? IN_FLIGHT : 1, send, (done) =>
        progress.update(`importing: ${Math.min(done * BATCH, products.length)}/${products.length} rows`),
      );
    } finally {
      progress.done();
    }
    answers.forEach((data, chunk) => {
      summary.created += data.created;
      summary.updated += data.updated;
      summary.failed += data.failed;
      for (const r of data.results)
        if (r.error)
          summary.failures.push({
            row: rows[chunk * BATCH + r.index],
            sku: r.sku,
            detail: r.error.detail.replace(/\s*\(support reference: [0-9a-f]+\)$/, ''),
          });
    });
    await printRecord(ctx, summary);
    if (summary.failed) {
      const shown = summary.failures
        .slice(0, 10)
        .map((f) => `row ${f.row} (${f.sku}): ${f.detail}`)
        .join('\n  ');
      const applied = summary.failed === products.length ? 'none was applied' : 'the others were applied';
      throw new CliError(
        `${summary.failed} of ${products.length} row(s) failed (${applied}):\n  ${shown}${summary.failed > 10 ? '\n  … see failures in the output' : ''}`,
      );
    }
    ctx.io.info(`imported ${products.length} row(s): ${summary.created} created, ${summary.updated} updated`);
  });
  declareOutput(cmd, own('prints its own summary; checks --json against it before sending'));
  return withExamples(cmd, [
    'fos products import products.csv',
    'fos products import catalogue.csv --merchant-team 0193… --dry-run',
    'printf "sku,name,type,weight,weight_unit\\nMUG-BLUE,Blue mug,STANDARD,350,G\\n" | fos products import -',
  ]);
}

/** True when no SKU (ignoring case) is in two chunks of BATCH rows. */
function chunksShareNoSku(products: Record<string, unknown>[]): boolean {
  const chunkOf = new Map<string, number>();
  for (let i = 0; i < products.length; i++) {
    const sku = String(products[i].sku).toLowerCase();
    const chunk = Math.floor(i / BATCH);
    if ((chunkOf.get(sku) ?? chunk) !== chunk) return false;
    chunkOf.set(sku, chunk);
  }
  return true;
}

/**
 * send(0) … send(count - 1) with at most `width` in flight, started in order; their answers in
 * order. After a failure nothing more is started; the requests in flight are let finish (each is
 * one transaction on the server, applied or not), then the first failure is thrown.
 */
async function inTurn<T>(count: number, width: number, send: (i: number) => Promise<{ data: T }>, onDone: (done: number) => void) {
  const answers: T[] = new Array(count);
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < count && !failure) {
      const i = next++;
      try {
        answers[i] = (await send(i)).data;
        onDone(++done);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  onDone(0);
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  if (failure) throw failure.error;
  return answers;
}
