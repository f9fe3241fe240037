import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { none } from '../../output/shape.js';

export default function keysDelete(ctx: Context): Command {
  return writeCommand(ctx, {
    output: none('answers 204: prints no record'),
    name: 'delete',
    description: 'Delete an API key',
    method: 'DELETE',
    mode: 'action',
    args: ['<key-id>'],
    path: ([id]) => `/keys/${seg(id)}`,
    confirm: (_, what) => `Delete key ${what}? This cannot be undone.`,
    lookup: { path: ([id]) => `/keys/${seg(id)}`, label: (k) => k.name },
    done: ([id]) => `deleted key ${id}`,
    examples: ['fos keys delete 0193… --yes'],
  });
}
