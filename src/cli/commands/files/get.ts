import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function filesGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/files.js')).FileSchema),
    description: 'Show one file record',
    args: ['<file-id>'],
    path: ([id]) => `/ops/files/${seg(id)}`,
    examples: ['fos files get 0193… --json url'],
  });
}
