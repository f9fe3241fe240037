import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { group, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

// `fos billing …` (docs/billing.md): daily storage. The server takes each warehouse's day by
// itself; `storage-run` takes a day now (running it again bills nothing twice) and
// `storage-snapshots` lists what was taken.

const contract = () => import('../../../contract/storage-billing.js');

export default (ctx: Context): Command =>
  group('billing', 'Billing runs: daily storage snapshots and their charges', [
    writeCommand(ctx, {
      output: response(async () => (await contract()).StorageRunResultSchema),
      name: 'storage-run',
      description: "Take a day's storage snapshot and bill it (each warehouse once; a second run says what exists)",
      method: 'POST',
      mode: 'create',
      path: () => '/ops/billing/storage-runs',
      fields: [
        { key: 'date', arg: 'YYYY-MM-DD', type: 'date', description: "the warehouse's local day (it must have ended)", required: true },
        { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', ref: 'warehouse', description: 'only this warehouse (default: all)' },
      ],
      examples: ['fos billing storage-run --date 2026-03-01', 'fos billing storage-run --date 2026-03-01 --warehouse "Portland DC"'],
    }),
    listCommand(ctx, {
      output: response(async () => (await contract()).StorageSnapshotSchema),
      name: 'storage-snapshots',
      description: "List daily storage snapshots: a merchant's occupied locations and units per location type and day",
      path: () => '/ops/billing/storage-snapshots',
      query: [
        { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', ref: 'warehouse', description: 'one warehouse' },
        { key: 'merchant_team_id', flag: '--merchant', arg: 'name|id', description: 'one merchant', ref: 'merchant' },
        { key: 'location_type_id', flag: '--location-type', arg: 'id', description: 'one location type (none: locations without one)' },
        { key: 'date_from', flag: '--from', arg: 'YYYY-MM-DD', type: 'date', description: 'days on or after' },
        { key: 'date_to', flag: '--to', arg: 'YYYY-MM-DD', type: 'date', description: 'days on or before' },
        { key: 'billed', type: 'boolean', description: 'true: with a charge; false: not billed' },
      ],
      columns: ['date', 'warehouse_name', 'merchant_team_name', 'location_type_name', 'locations', 'units', 'charge_id'],
      examples: [
        'fos billing storage-snapshots --from 2026-03-01 --to 2026-03-31',
        'fos billing storage-snapshots --merchant "Acme Outdoor" --all',
      ],
    }),
  ]);
