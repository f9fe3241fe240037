import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { FILE_UPDATE_FIELDS } from './fields.js';

export default function filesUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
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
