import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { VENDOR_FIELDS, vendorPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function vendorsCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/vendors.js')).VendorSchema),
    name: 'create',
    description: 'Create a vendor for your merchant team',
    method: 'POST',
    mode: 'create',
    path: () => vendorPath(),
    fields: VENDOR_FIELDS,
    examples: [
      'fos vendors create --vendor-name Acme --company-name "Acme Ltd" --address "1 Main St" --city Leeds --state WYK --zip-code LS1 --country GB',
    ],
  });
}
