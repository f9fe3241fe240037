import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';

export default function pickingSessionsCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    name: 'create',
    description: 'Start a picking session (then add fulfillment orders with `add`)',
    method: 'POST',
    mode: 'create',
    bodyOptions: false,
    path: () => '/ops/picking-sessions',
    fields: [{ key: 'name', description: 'session name', required: true }],
    examples: ['fos picking-sessions create --name "Morning wave"'],
  });
}
