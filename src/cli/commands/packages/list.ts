import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { packagePath } from './fields.js';
import { response } from '../../output/shape.js';

export default function packagesList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).PackageListSchema),
    description: 'List packages',
    path: () => packagePath(),
    query: [
      { key: 'fulfillment_order_id', arg: 'id', description: 'only packages of this fulfillment order', ref: 'fulfillment-order' },
      { key: 'status', type: 'list', values: ENUMS.package_status, description: 'package statuses, comma-separated' },
      { key: 'scan_form_id', flag: '--scan-form', arg: 'id', description: 'only packages on this scan form' },
    ],
    export: {
      name: 'export',
      description: 'Export every package (NDJSON or CSV) to stdout, newest first',
      path: '/ops/packages/export',
      examples: ['fos packages export > packages.ndjson'],
    },
    columns: ['id', 'name', 'status', 'fulfillment_order_id', 'shipment_status', 'shipping_label_tracking_code', 'created_at'],
    examples: ['fos packages list --fulfillment-order-id 0193…', 'fos packages list --status PENDING --all --format csv'],
  });
}
