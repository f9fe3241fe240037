import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { resolveRef } from '../../shared/refs.js';
import { getCommand, group, resourcePath } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

// `fos warehouses list|get`: find warehouse ids (every --warehouse flag also takes the name).

const path = (id?: string) => resourcePath('/ops/warehouses', id);

export default (ctx: Context): Command =>
  group('warehouses', 'Warehouses of your team: names and ids', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/warehouses.js')).WarehouseSchema),
      description: "List the team's warehouses, by name",
      path: () => path(),
      query: [{ key: 'name', description: 'only warehouses with exactly this name' }],
      columns: ['id', 'name', 'city', 'state', 'country', 'label_format'],
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
  ]);
