import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { resourcePath, writeCommand } from '../../shared/resource.js';
import { none, response } from '../../output/shape.js';

export function locationsUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/locations.js')).LocationSchema),
    name: 'update',
    description: 'Change a location: name, barcode, type, pick sequence, active',
    method: 'PATCH',
    mode: 'update',
    args: ['<location-id>'],
    path: ([id]) => resourcePath('/ops/locations', id),
    fields: [
      { key: 'name', description: 'new name (unique in the warehouse)' },
      { key: 'barcode', description: 'what a scanner reads at the bin' },
      { key: 'type', type: 'enum', values: ENUMS.location_type, description: 'location type' },
      { key: 'pick_sequence', type: 'int', min: 0, description: 'walk order' },
      { key: 'active', type: 'boolean', description: 'false: no new stock is moved in' },
    ],
    examples: ['fos locations update A-01-02 --type OVERSTOCK --pick-sequence 900'],
  });
}

export function locationsDelete(ctx: Context): Command {
  return writeCommand(ctx, {
    output: none('answers 204: prints no record'),
    name: 'delete',
    description: "Delete an empty location (never the warehouse's default)",
    method: 'DELETE',
    mode: 'action',
    args: ['<location-id>'],
    path: ([id]) => resourcePath('/ops/locations', id),
    confirm: (_args, what) => `Delete location ${what}?`,
    lookup: { path: ([id]) => resourcePath('/ops/locations', id), label: (r) => r.name },
    done: ([id]) => `location ${id} deleted`,
    examples: ['fos locations delete 0193… --yes'],
  });
}
