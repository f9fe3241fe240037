import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';

export default function filesGet(ctx: Context): Command {
  return getCommand(ctx, {
    description: 'Show one file record',
    args: ['<file-id>'],
    path: ([id]) => `/ops/files/${seg(id)}`,
    examples: ['fos files get 0193… --json url'],
  });
}
