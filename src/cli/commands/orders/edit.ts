import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { orderArg, seg, writeCommand } from '../../shared/resource.js';
import { addLineOptions, lineChanges } from './edit-lines.js';
import { response } from '../../output/shape.js';
import { CARRIER_SELECTION_FIELDS } from '../../shared/rate-options.js';

/** PATCH /v1/ops/orders/{id}: address (--data or -F shipping_address.city=…), shipping method, note, tags, line items. */
export default function ordersEdit(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).OrderSchema),
    name: 'edit',
    description:
      'Edit an open order: shipping address (re-verified), shipping method, note, tags, lock_address, carrier selection, line items',
    method: 'PATCH',
    mode: 'update',
    args: ['<order>'],
    resolveArgs: orderArg,
    path: ([id]) => `/ops/orders/${seg(id)}`,
    fields: [
      { key: 'shipping_method', arg: 'name', description: 'shipping method' },
      { key: 'note', arg: 'text', description: 'order note' },
      { key: 'tags', type: 'list', description: 'tags, comma-separated (replaces them)' },
      { key: 'lock_address', type: 'boolean', arg: 'true|false', description: 'freeze (true) or unfreeze (false) the shipping address' },
      // A person's carrier selection: no automation rule overwrites it (-f carrier_id=null hands a field back to the rules).
      ...CARRIER_SELECTION_FIELDS,
    ],
    configure: addLineOptions,
    transform: (body, opts) => ({ ...lineChanges(opts), ...body }),
    examples: [
      'fos orders edit 1003 --shipping-method Express --note "leave at door"',
      'fos orders edit 1003 --data address.json   # {"shipping_address": {"address1": …, "city": …, "country": "US"}}',
      'fos orders edit 1003 --tags vip,gift --json tags',
      'fos orders edit 1003 --add-line sku=TENT-2P,quantity=2,price=149 --set-quantity 0195…=1 --remove-line 0196…',
    ],
  });
}
