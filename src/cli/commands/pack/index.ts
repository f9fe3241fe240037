import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { ENUMS } from '../../enums.js';
import { dimensionFields } from '../../shared/dimensions.js';
import { addFieldOptions, collectFields, type FieldSpec } from '../../shared/flags.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { packTargetOf } from '../../shared/refs.js';
import { defaultLockOwner } from '../fulfillment-orders/owner.js';
import { declareOutput, response } from '../../output/shape.js';

// `fos pack`: the packing station for a terminal and a USB barcode scanner (issue 28 item 6a,
// docs/floor.md "The packing station"). The loop is station.ts; it is loaded when the command runs.

const FIELDS: FieldSpec[] = [
  ...dimensionFields(' (default: the team measurement system)'),
  { key: 'name', description: 'package name, e.g. "Box 1"' },
  { key: 'rate_strategy', type: 'enum', values: ENUMS.rate_strategy, description: 'how --print buys the label (kept on the package)' },
  { key: 'carton_id', arg: 'id', description: 'carton used' },
];

export default function pack(ctx: Context): Command {
  const cmd = new Command('pack').description(
    'Packing station for a USB scanner: scan each item of a fulfillment order into its box (every scan is checked), ' +
      'then type done to close the box into a package. A line is a code, 3*CODE or CODE LOT; undo takes the last scan out; ' +
      'quit leaves the box open on the server, and the station resumes it',
  );
  cmd
    .option('--fo <ref>', 'the fulfillment order to pack: its order number, tote or id (else it is asked for, box after box)')
    .option('--print', 'when the box is closed, buy its label and send it to the printer: lp, or FOS_PRINT_COMMAND')
    .option('--printer <name>', 'printer for --print (lp -d)')
    .option('--print-dir <dir>', 'when the box is closed, buy its label and save it in this folder (as fos fulfill run --print-dir)')
    // The station's first name for it, kept working.
    .addOption(new Option('--label-dir <dir>').hideHelp())
    .option('--ship', 'ship every box as it is closed: label it (if not yet) and fulfill it (else type ship after done)')
    .option('--lock-owner <name>', 'who packs, if the order is locked (default: $FOS_LOCK_OWNER or user@host)');
  addFieldOptions(cmd, FIELDS);
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts();
    // An order number, a tote or a short id, as well as the whole id (shared/refs.ts).
    const fo = opts.fo ? await packTargetOf(ctx.client(), String(opts.fo)) : undefined;
    if (!fo && !ctx.io.canPrompt) throw new UsageError('fulfillment order required: pass --fo <id> (prompts need a terminal)');
    const { PackStation } = await import('./station.js');
    const station = new PackStation(ctx, {
      fo,
      fields: collectFields(opts, FIELDS),
      lockOwner: (opts.lockOwner as string | undefined) ?? defaultLockOwner(ctx.env),
      print: Boolean(opts.print),
      printer: opts.printer as string | undefined,
      labelDir: (opts.printDir ?? opts.labelDir) as string | undefined,
      ship: Boolean(opts.ship),
    });
    await station.run();
    // Nothing packed (quit before done, or no input): not a success for a script (docs/cli.md).
    if (!station.packed) throw new CliError('nothing was packed', ExitCode.ERROR);
  });
  declareOutput(
    cmd,
    response(async () => (await import('../../../contract/packages.js')).PackageSchema),
  );
  return withExamples(cmd, [
    'fos pack',
    'fos pack --fo 1007 --weight 850 --weight-unit G',
    'fos pack --rate-strategy CHEAPEST --print',
    'fos pack --print-dir ~/labels',
  ]);
}
