import type { Command } from 'commander';
import type { Context } from '../context.js';
import { ENUMS } from '../enums.js';
import { writeCommand, type WriteSpec } from './resource.js';

/** `fos orders cancel` and `fos fulfillment-orders cancel`: the same body (reason, restock), destructive. */
export function cancelCommand(
  ctx: Context,
  spec: Pick<WriteSpec, 'description' | 'args' | 'path' | 'examples' | 'resolveArgs' | 'output'> & { what: string },
): Command {
  return writeCommand(ctx, {
    output: spec.output,
    name: 'cancel',
    description: spec.description,
    method: 'POST',
    mode: 'create',
    args: spec.args,
    resolveArgs: spec.resolveArgs,
    path: spec.path,
    fields: [
      { key: 'reason', type: 'enum', values: ENUMS.cancel_reason, required: true, description: `why (${ENUMS.cancel_reason.join(', ')})` },
      {
        key: 'restock',
        type: 'boolean',
        arg: 'true|false',
        description: 'released units go back on sale (default true) or are set aside as unavailable',
      },
    ],
    confirm: ([id]) => `Cancel what is not shipped of ${spec.what} ${id}?`,
    examples: spec.examples,
  });
}
