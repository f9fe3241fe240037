import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function carrierRatesCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).CarrierRateSchema),
    name: 'create',
    description: 'Add a carrier rate: base amount plus a price per unit of package weight',
    method: 'POST',
    mode: 'create',
    path: () => '/ops/carrier-rates',
    fields: [
      { key: 'carrier_id', arg: 'id', description: 'carrier identifier', required: true },
      { key: 'carrier_name', arg: 'name', description: 'carrier name', required: true },
      { key: 'service_id', arg: 'id', description: 'service identifier', required: true },
      { key: 'service_name', arg: 'name', description: 'service name', required: true },
      { key: 'amount', type: 'number', min: 0, description: 'base price', required: true },
      { key: 'currency', description: 'ISO 4217 (default USD)' },
      { key: 'per_unit_weight', type: 'number', min: 0, description: 'added per weight unit of the package' },
      { key: 'max_weight', type: 'number', min: 0, description: 'heaviest package served' },
      {
        key: 'weight_unit',
        type: 'enum',
        values: ENUMS.carrier_weight_unit,
        description: 'unit of per_unit_weight/max_weight (default G)',
      },
      { key: 'countries', flag: '--country', arg: 'CC,…', type: 'list', description: 'ISO 3166 alpha-2 destinations (default: all)' },
      { key: 'estimated_days', type: 'int', min: 0, description: 'transit days' },
      { key: 'delivery_date_guaranteed', flag: '--guaranteed', type: 'boolean', description: 'delivery date guaranteed' },
    ],
    examples: [
      'fos carrier-rates create --carrier-id ups --carrier-name UPS --service-id ground --service-name Ground --amount 6.5 --per-unit-weight 0.002',
      'fos carrier-rates create --data @rate.json',
    ],
  });
}
