import { Command } from 'commander';
import type { Context } from '../../context.js';
import { deliver, documentOptions, fetchLabel, fetchSlip, type DocumentOptions } from '../../shared/documents.js';
import { enumOption } from '../../shared/flags.js';
import { addArguments, commandOf, withExamples } from '../../shared/help.js';
import { resolveRef } from '../../shared/refs.js';
import { packagePath } from './fields.js';
import { declareOutput, fixed } from '../../output/shape.js';

// `fos packages get-label` and `fos packages slip`: a package's printable documents, saved,
// printed or written to a pipe (src/cli/shared/documents.ts).

export function packagesGetLabel(ctx: Context): Command {
  const cmd = new Command('get-label').description(
    'Fetch the shipping label of a package (to reprint it): PDF, or ZPL with --label-format ZPL',
  );
  addArguments(cmd, ['<package-id>']);
  cmd.addOption(
    enumOption(
      '--label-format <format>',
      'PDF or ZPL (labels bought on this server; default: the format it was bought in)',
      'label_format',
    ),
  );
  documentOptions(cmd, 'label');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const id = await resolveRef(ctx.client(), 'package', (command.processedArgs as string[])[0]);
    const opts = command.opts() as DocumentOptions & { labelFormat?: string };
    const pkg = await ctx.client().get<Record<string, unknown>>(packagePath(id));
    await deliver(ctx, await fetchLabel(ctx.client(), pkg, opts.labelFormat), opts);
  });
  declareOutput(cmd, fixed('writes the label document (PDF, ZPL) to a file, a printer or stdout'));
  return withExamples(cmd, [
    'fos packages get-label 0193… --output label.pdf',
    'fos packages get-label 0193… --label-format ZPL --print --printer zebra',
    'fos packages get-label 0193… > label.pdf',
  ]);
}

export function packagesSlip(ctx: Context): Command {
  const cmd = new Command('slip').description('Fetch the packing slip of a package (PDF); --with-label puts the label page first');
  addArguments(cmd, ['<package-id>']);
  cmd.option('--with-label', 'the label (4x6 in) followed by the slip (US Letter), one PDF, each page its own size (bought labels only)');
  documentOptions(cmd, 'packing slip');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const id = await resolveRef(ctx.client(), 'package', (command.processedArgs as string[])[0]);
    const opts = command.opts() as DocumentOptions & { withLabel?: boolean };
    await deliver(ctx, await fetchSlip(ctx.client(), id, opts.withLabel), opts);
    if (opts.withLabel) {
      ctx.io.info(
        'the label page is 4x6 in, the packing slip pages US Letter: each page keeps its own size (print at actual size, the printer picks the paper per page)',
      );
    }
  });
  declareOutput(cmd, fixed('writes the packing slip PDF to a file, a printer or stdout'));
  return withExamples(cmd, ['fos packages slip 0193… --output slip.pdf', 'fos packages slip 0193… --with-label --print']);
}
