import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { VENDOR_FIELDS, vendorPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function vendorsUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/vendors.js')).VendorSchema),
    name: 'update',
    description: 'Change fields of a vendor (partial update)',
    method: 'PATCH',
    mode: 'update',
    args: ['<vendor-id>'],
    path: ([id]) => vendorPath(id),
    fields: VENDOR_FIELDS,
    examples: ['fos vendors update 0193… --contact-email buyer@acme.example'],
  });
}
