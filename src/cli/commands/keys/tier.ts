import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { enumArgument } from '../../shared/flags.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function keysTier(ctx: Context): Command {
  const tier = enumArgument('<tier>', 'rate tier: 1=30, 2=120, 3=600, 4=3000 requests per 60 s', 'tier', ENUMS.tier);
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).KeySchema),
    name: 'tier',
    description: "Set a key's rate tier",
    method: 'PUT',
    mode: 'action',
    args: ['<key-id>', tier],
    path: ([id]) => `/keys/${seg(id)}/tier`,
    transform: (_body, _opts, args) => ({ tier: Number(args[1]) }),
    examples: ['fos keys tier 0193… 3'],
  });
}
