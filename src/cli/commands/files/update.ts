import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { FILE_UPDATE_FIELDS } from './fields.js';
import { response } from '../../output/shape.js';

export default function filesUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/files.js')).FileSchema),
    name: 'update',
    description: 'Change a file record',
    method: 'PATCH',
    mode: 'update',
    args: ['<file-id>'],
    path: ([id]) => `/ops/files/${seg(id)}`,
    fields: FILE_UPDATE_FIELDS,
    examples: ['fos files update 0193… --description "Packing guide v2" --tag guides,packing'],
  });
}
