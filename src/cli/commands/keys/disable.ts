import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function keysDisable(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).KeySchema),
    name: 'disable',
    description: 'Disable an API key: its token stops authenticating (401)',
    method: 'POST',
    mode: 'action',
    args: ['<key-id>'],
    path: ([id]) => `/keys/${seg(id)}/disable`,
    confirm: (_, what) => `Disable key ${what}? Clients using it will get 401.`,
    lookup: { path: ([id]) => `/keys/${seg(id)}`, label: (k) => k.name },
    done: ([id]) => `disabled key ${id}`,
    examples: ['fos keys disable 0193…', 'fos keys disable 0193… --yes   # no prompt (scripts)'],
  });
}
