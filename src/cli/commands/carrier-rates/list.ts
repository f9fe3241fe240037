import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function carrierRatesList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).CarrierRateListSchema),
    description: 'List carrier rates used for rate shopping',
    path: () => '/ops/carrier-rates',
    columns: ['id', 'carrier_name', 'service_name', 'amount', 'currency', 'estimated_days'],
    examples: ['fos carrier-rates list'],
  });
}
