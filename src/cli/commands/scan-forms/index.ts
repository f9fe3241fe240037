import { Command } from 'commander';
import type { Context } from '../../context.js';
import { deliver, documentOptions, fetchManifest, type DocumentOptions } from '../../shared/documents.js';
import { addArguments, commandOf, withExamples } from '../../shared/help.js';
import { listCommand } from '../../shared/list.js';
import { fullIdOf } from '../../shared/refs.js';
import { getCommand, group, resourcePath, writeCommand } from '../../shared/resource.js';
import { declareOutput, fixed, response } from '../../output/shape.js';

// `fos scan-forms …`: end-of-day manifests (docs/scan-forms.md).

const path = (id?: string, action?: string) => resourcePath('/ops/scan-forms', id, action);

function manifest(ctx: Context): Command {
  const cmd = new Command('manifest').description('Fetch the manifest PDF of a scan form (for the driver to sign)');
  addArguments(cmd, ['<scan-form-id>']);
  documentOptions(cmd, 'manifest');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const id = await fullIdOf(ctx.client(), path(), (command.processedArgs as string[])[0], 'scan form');
    await deliver(ctx, await fetchManifest(ctx.client(), id), command.opts() as DocumentOptions);
  });
  declareOutput(cmd, fixed('writes the manifest PDF'));
  return withExamples(cmd, ['fos scan-forms manifest 0193… --output manifest.pdf', 'fos scan-forms manifest 0193… --print']);
}

export default (ctx: Context): Command =>
  group('scan-forms', 'Scan forms: the end-of-day manifest of a warehouse and carrier', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/scan-forms.js')).ScanFormListSchema),
      description: 'List scan forms, newest first',
      path: () => path(),
      query: [
        { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'scan forms of this warehouse', ref: 'warehouse' },
        { key: 'carrier_id', flag: '--carrier', arg: 'id', description: 'scan forms of this carrier' },
        { key: 'form_date', flag: '--date', arg: 'YYYY-MM-DD', description: 'scan forms of this day' },
      ],
      columns: ['id', 'form_date', 'carrier_name', 'warehouse_name', 'package_count', 'created_at'],
      examples: ['fos scan-forms list --date 2026-11-23'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../contract/scan-forms.js')).ScanFormSchema),
      description: 'Show a scan form (its packages: fos packages list --scan-form <id>)',
      args: ['<scan-form-id>'],
      path: ([id]) => path(id),
      examples: ['fos scan-forms get 0193…'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/scan-forms.js')).ScanFormSchema),
      name: 'create',
      description: "Put the day's labelled packages of a carrier at a warehouse on a scan form (no longer voidable)",
      method: 'POST',
      mode: 'create',
      path: () => path(),
      fields: [
        {
          key: 'warehouse_id',
          flag: '--warehouse',
          arg: 'name|id',
          description: 'warehouse the driver collects from',
          required: true,
          ref: 'warehouse',
        },
        { key: 'carrier_id', flag: '--carrier', arg: 'id', description: 'carrier_id of the labels, e.g. ups', required: true },
        { key: 'date', arg: 'YYYY-MM-DD', description: 'day (UTC) the labels were bought; default today' },
      ],
      configure: (cmd) => {
        cmd.option('--package <id...>', 'only these packages (each must qualify)');
        documentOptions(cmd, 'manifest');
      },
      transform: (body, opts) => (opts.package ? { ...body, package_ids: opts.package } : body),
      after: async (ctx, record, opts) => {
        const o = opts as DocumentOptions;
        if (!o.output && !o.print) return;
        await deliver(ctx, await fetchManifest(ctx.client(), String((record as { id: string }).id)), o, false);
      },
      examples: [
        'fos scan-forms create --warehouse "Portland DC" --carrier ups --print',
        'fos scan-forms create --warehouse "Portland DC" --carrier fedex --output manifest.pdf',
      ],
    }),
    manifest(ctx),
  ]);
