import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { vendorPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function vendorsList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/vendors.js')).VendorSchema),
    description: 'List vendors (merchant keys)',
    path: () => vendorPath(),
    query: [
      { key: 'order_by', type: 'enum', values: ['created_at', 'updated_at'], description: 'sort field' },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction (default desc)' },
    ],
    columns: ['id', 'vendor_name', 'company_name', 'city', 'country', 'contact_email'],
    examples: ['fos vendors list', 'fos vendors list --all --format csv > vendors.csv'],
  });
}
