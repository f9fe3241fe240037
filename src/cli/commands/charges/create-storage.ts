import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** Body: { fulfillment_delegation_id | merchant_team_id, data: { name, location_type_id, warehouse_id, rate_period, quantity } }. */
export default function chargesCreateStorage(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/charges.js')).ChargeSchema),
    name: 'create-storage',
    description: 'Bill a storage charge to a merchant',
    method: 'POST',
    mode: 'create',
    path: () => '/ops/charges/storage',
    fields: [
      { key: 'fulfillment_delegation_id', flag: '--delegation', arg: 'id', description: 'delegation to bill (or --merchant)' },
      {
        key: 'merchant_team_id',
        flag: '--merchant',
        alias: '--merchant-team',
        arg: 'name|id',
        description: 'merchant to bill (or --delegation)',
        ref: 'merchant',
      },
      { key: 'data.name', flag: '--name', description: 'charge name', required: true },
      { key: 'data.location_type_id', flag: '--location-type', arg: 'id', description: 'storage location type', required: true },
      { key: 'data.warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'warehouse', required: true, ref: 'warehouse' },
      {
        key: 'data.rate_period',
        flag: '--rate-period',
        arg: 'period',
        type: 'enum',
        values: ENUMS.rate_period,
        description: 'rate period',
        required: true,
      },
      { key: 'data.quantity', flag: '--quantity', type: 'number', min: 0, description: 'quantity billed', required: true },
    ],
    transform: (body) => {
      const targets = ['fulfillment_delegation_id', 'merchant_team_id'].filter((k) => body[k] !== undefined);
      if (targets.length !== 1) throw new UsageError('pass exactly one of --delegation and --merchant');
      return body;
    },
    examples: [
      'fos charges create-storage --delegation 0193… --name "Pallet storage" --location-type 0193… --warehouse "Portland DC" --rate-period DAILY --quantity 4',
    ],
  });
}
