import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { writeCommand } from '../../shared/resource.js';
import { packagePath } from './fields.js';

export default function packagesLabel(ctx: Context): Command {
  return writeCommand(ctx, {
    name: 'label',
    description: 'Attach a shipping label: upload an external one, or buy one by rate shopping',
    method: 'POST',
    mode: 'action',
    args: ['<package-id>'],
    path: ([id]) => packagePath(id, 'label'),
    fields: [
      { key: 'label_url', arg: 'url', description: 'URL of an externally generated label' },
      { key: 'tracking_number', description: 'carrier tracking number' },
      { key: 'carrier', description: 'carrier name' },
      { key: 'service', description: 'carrier service' },
      { key: 'cost', type: 'number', min: 0, description: 'label cost' },
      { key: 'cost_currency', description: 'ISO 4217 currency' },
      { key: 'tracking_url', arg: 'url', description: 'tracking page URL' },
      { key: 'rate_strategy', type: 'enum', values: ENUMS.rate_strategy, description: 'buy a label by rate shopping instead' },
      { key: 'carrier_id', arg: 'id', description: 'rate shopping: only this carrier' },
      { key: 'service_id', arg: 'id', description: 'rate shopping: only this service' },
    ],
    examples: [
      'fos packages label 0193… --label-url https://labels.example/1.pdf --tracking-number 1Z999 --carrier UPS --service Ground --cost 7.5 --cost-currency USD',
      'fos packages label 0193… --rate-strategy CHEAPEST',
    ],
  });
}
