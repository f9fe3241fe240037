import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { declareOutput, response } from '../../output/shape.js';
import { printRecord } from '../../output/print.js';
import { deliver, documentOptions, saveIn, type DocumentOptions } from '../../shared/documents.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { resolveRef } from '../../shared/refs.js';
import { resourcePath } from '../../shared/resource.js';
import { ENUMS } from '../../enums.js';
import type { Static } from 'typebox';
import type { LabelBatchSchema } from '../../../contract/label-batches.js';
import { addRateFlags, rateBody, type RateFlags } from '../../shared/rate-options.js';

// `fos labels batch`: buys the labels of a picking session's (or a list of) packages in one
// batch (POST /v1/ops/label-batches), shows its progress, then saves or prints the merged file.
// Exit 5 when any package FAILED (each with its reason in the printed batch).

const path = (id?: string, action?: string) => resourcePath('/ops/label-batches', id, action);
const lower = (values: readonly string[]) => values.map((v) => v.toLowerCase());

interface BatchOptions extends DocumentOptions, RateFlags {
  session?: string;
  package?: string[];
  fulfillmentOrder?: string[];
  rateStrategy?: string;
  carrier?: string;
  service?: string;
  format?: string;
  slips?: boolean;
  printDir?: string;
  wait: boolean;
}

/** What it reads of the batch (a pick of the contract's schema). */
type Batch = Pick<
  Static<typeof LabelBatchSchema>,
  'id' | 'status' | 'package_count' | 'bought' | 'failed' | 'skipped' | 'pending' | 'label_format' | 'items'
>;

async function bodyOf(ctx: Context, o: BatchOptions) {
  const given = [o.session, o.package, o.fulfillmentOrder].filter((v) => v !== undefined);
  if (given.length !== 1) throw new UsageError('name the packages one way: --session, --package or --fulfillment-order');
  const client = ctx.client();
  const all = (kind: 'package' | 'fulfillment-order', values: string[]) => Promise.all(values.map((v) => resolveRef(client, kind, v)));
  return {
    ...(o.session ? { picking_session_id: await resolveRef(client, 'picking-session', o.session) } : {}),
    ...(o.package ? { package_ids: await all('package', o.package) } : {}),
    ...(o.fulfillmentOrder ? { fulfillment_order_ids: await all('fulfillment-order', o.fulfillmentOrder) } : {}),
    ...rateBody(o),
    ...(o.carrier ? { carrier_id: o.carrier } : {}),
    ...(o.service ? { service_id: o.service } : {}),
    ...(o.format ? { label_format: o.format.toUpperCase() } : {}),
    ...(o.slips ? { packing_slips: true } : {}),
  };
}

/** Polls the batch until every package has an outcome, redrawing a progress line on a terminal. */
async function awaitBatch(ctx: Context, first: Batch): Promise<Batch> {
  const bar = ctx.io.progress();
  let b = first;
  try {
    while (b.status !== 'COMPLETED') {
      const done = b.package_count - b.pending;
      bar.update(`labels: ${done}/${b.package_count} (${b.bought} bought, ${b.failed} failed, ${b.skipped} skipped)`);
      await sleep(500);
      b = await ctx.client().get<Batch>(path(b.id));
    }
  } finally {
    bar.done();
  }
  return b;
}

async function saveFile(ctx: Context, b: Batch, o: BatchOptions) {
  if (!b.bought || (!o.output && !o.print && !o.printDir)) return;
  const doc = await ctx.client().download(path(b.id, 'labels'));
  const file = { ...doc, filename: `label-batch-${b.id}.${/zpl/i.test(doc.contentType) ? 'zpl' : 'pdf'}` };
  if (o.printDir) ctx.io.info(`saved ${await saveIn(o.printDir, file)}`);
  await deliver(ctx, file, o, false);
}

export default function batch(ctx: Context): Command {
  const cmd = new Command('batch')
    .description("Buy many packages' labels in one batch and save or print them as one file")
    .option('--session <id>', "a picking session's open packages, in pick order")
    .option('--package <id...>', 'these packages, in this order (ids or prefixes)')
    .option('--fulfillment-order <ref...>', 'the open packages of these fulfillment orders (ids or order numbers)')
    .addOption(
      new Option('--rate-strategy <strategy>', 'for packages without their own (default: CHEAPEST)').choices(lower(ENUMS.rate_strategy)),
    )
    .option('--carrier <id>', 'only rates of this carrier, e.g. ups')
    .option('--service <id>', 'only this service')
    .addOption(new Option('--format <format>', 'the merged file: 4x6 PDF or one ZPL stream').choices(lower(ENUMS.label_format)))
    .option('--slips', 'PDF: each label followed by its packing slip')
    .option('--print-dir <dir>', 'also save the merged file in this folder')
    .option('--no-wait', 'answer with the batch at once (it runs on the server; fos labels batch-get <id> shows it)');
  addRateFlags(cmd);
  documentOptions(cmd, 'merged labels file');
  cmd.action(async (...args: unknown[]) => {
    const o = commandOf(args).opts() as BatchOptions;
    const created = await ctx.client().post<Batch>(path(), await bodyOf(ctx, o));
    const b = o.wait ? await awaitBatch(ctx, created) : created;
    if (o.wait) await saveFile(ctx, b, o);
    await printRecord(ctx, b);
    if (b.failed) {
      const first = b.items.find((i) => i.status === 'FAILED')!;
      throw new CliError(
        `${b.failed} of ${b.package_count} labels failed (package ${first.package_id}: ${first.message})`,
        ExitCode.CONFLICT,
      );
    }
  });
  declareOutput(
    cmd,
    response(async () => (await import('../../../contract/label-batches.js')).LabelBatchSchema),
  );
  return withExamples(cmd, [
    'fos labels batch --session "Wave 3" --print',
    'fos labels batch --fulfillment-order 1001 1002 1003 --format zpl --output wave.zpl',
    'fos labels batch --package 0193… 0194… --rate-strategy fastest --print-dir ~/labels',
  ]);
}
