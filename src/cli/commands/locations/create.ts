import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

// `fos locations create A-01-03 --warehouse …` makes one bin; `--range A-01-01..A-20-05` makes a
// whole block in one request (all or none).

export default function locationsCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async (opts) => {
      const contract = await import('../../../contract/locations.js');
      return opts.range ? contract.BulkLocationsSchema : contract.LocationSchema;
    }),
    name: 'create',
    description: 'Create a location (bin), or a block of them with --range A-01-01..A-20-05',
    method: 'POST',
    mode: 'create',
    args: ['[name]'],
    path: (_args, opts) => (opts.range ? '/ops/locations/bulk' : '/ops/locations'),
    fields: [
      {
        key: 'warehouse_id',
        flag: '--warehouse',
        arg: 'name|id',
        description: 'warehouse of the location',
        required: true,
        ref: 'warehouse',
      },
      { key: 'type', type: 'enum', values: ENUMS.location_type, description: 'default PICKABLE' },
      { key: 'barcode', description: 'what a scanner reads at the bin (one location only)' },
      { key: 'pick_sequence', type: 'int', min: 0, description: 'walk order (default: after the last)' },
      { key: 'range', arg: 'FIRST..LAST', description: 'make every bin of a range, e.g. A-01-01..A-20-05' },
    ],
    transform: (body, opts, args) => {
      const [name] = args;
      if (opts.range) {
        if (name || body.barcode !== undefined || body.pick_sequence !== undefined)
          throw new UsageError('--range makes many bins: give no name, --barcode or --pick-sequence with it');
        return body;
      }
      if (!name && body.name === undefined) throw new UsageError("give the location's name (e.g. A-01-03) or --range FIRST..LAST");
      return name ? { ...body, name } : body;
    },
    examples: [
      'fos locations create A-01-03 --warehouse 0193… --barcode LOC-A0103',
      'fos locations create --warehouse 0193… --range A-01-01..A-20-05',
      'fos locations create --warehouse 0193… --range O-01..O-40 --type OVERSTOCK',
    ],
  });
}
