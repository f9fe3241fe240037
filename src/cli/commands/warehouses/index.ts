import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { resolveRef } from '../../shared/refs.js';
import { getCommand, group, resourcePath, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

// `fos warehouses list|get|update`: find warehouse ids (every --warehouse flag also takes the name)
// and set a warehouse's time zone (where its day ends for daily storage billing).

const path = (id?: string) => resourcePath('/ops/warehouses', id);

export default (ctx: Context): Command =>
  group('warehouses', 'Warehouses of your team: names, ids and time zones', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/warehouses.js')).WarehouseSchema),
      description: "List the team's warehouses, by name",
      path: () => path(),
      query: [{ key: 'name', description: 'only warehouses with exactly this name' }],
      columns: ['id', 'name', 'city', 'state', 'country', 'label_format', 'time_zone'],
      examples: ['fos warehouses list', 'fos warehouses list --json id,name'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../contract/warehouses.js')).WarehouseSchema),
      description: 'Show one warehouse, by name, id or id prefix',
      args: ['<warehouse>'],
      path: ([id]) => path(id),
      resolveArgs: async (c, [ref]) => [await resolveRef(c.client(), 'warehouse', ref)],
      examples: ['fos warehouses get "Portland DC"', 'fos warehouses get 0193a1b2'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/warehouses.js')).WarehouseSchema),
      name: 'update',
      description: "Change a warehouse's time zone (where its day ends for daily storage billing)",
      method: 'PATCH',
      mode: 'update',
      args: ['<warehouse>'],
      path: ([id]) => path(id),
      resolveArgs: async (c, [ref]) => [await resolveRef(c.client(), 'warehouse', ref)],
      fields: [{ key: 'time_zone', arg: 'zone', description: 'IANA time zone name, e.g. America/Los_Angeles (default UTC)' }],
      examples: ['fos warehouses update "Portland DC" --time-zone America/Los_Angeles'],
    }),
  ]);
