import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { none } from '../../output/shape.js';

export default function carrierRatesDelete(ctx: Context): Command {
  return writeCommand(ctx, {
    output: none('answers 204: prints no record'),
    name: 'delete',
    description: 'Delete a carrier rate',
    method: 'DELETE',
    mode: 'action',
    args: ['<carrier-rate-id>'],
    path: ([id]) => `/ops/carrier-rates/${seg(id)}`,
    confirm: ([id]) => `Delete carrier rate ${id}?`,
    done: ([id]) => `deleted carrier rate ${id}`,
    examples: ['fos carrier-rates delete 0193… --yes'],
  });
}
