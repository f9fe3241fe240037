import type { Context } from '../../context.js';
import { group } from '../../shared/resource.js';
import create from './create.js';
import importCsv from './import.js';
import list from './list.js';
import { locationsDelete, locationsUpdate } from './update.js';

export default (ctx: Context) =>
  group('locations', 'Bins of a warehouse: where stock sits and the order pickers walk (docs/floor.md)', [
    list(ctx),
    create(ctx),
    importCsv(ctx),
    locationsUpdate(ctx),
    locationsDelete(ctx),
  ]);
