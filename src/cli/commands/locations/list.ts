import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

export default function locationsList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/locations.js')).LocationListSchema),
    description: 'List locations (bins) in walk order: warehouse, pick sequence, name',
    path: () => '/ops/locations',
    maxLimit: 1000,
    query: [
      warehousesFilter(),
      { key: 'type', type: 'list', values: ENUMS.location_type, description: 'location types, comma-separated' },
      { key: 'name', description: 'names starting with this, e.g. A-01' },
      { key: 'active', type: 'boolean', description: 'only active (true) or inactive (false) locations' },
      { key: 'count_requested', type: 'boolean', description: 'true: the bins a short pick marked for a count' },
    ],
    columns: ['warehouse_name', 'name', 'type', 'pick_sequence', 'barcode', 'active', 'is_default', 'id'],
    examples: [
      'fos locations list --warehouse "Portland DC"',
      'fos locations list --warehouse "Portland DC" --type OVERSTOCK --all --format csv > bins.csv',
      'fos locations list --count-requested true   # the bins to count after short picks',
    ],
  });
}
