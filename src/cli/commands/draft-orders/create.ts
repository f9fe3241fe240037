import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { addItemOption } from '../../shared/items.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';
import { CARRIER_SELECTION_FIELDS } from '../../shared/rate-options.js';

/** Common fields have flags; the address and the rest go through --field / --data. */
export default function draftOrdersCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).DraftOrderSchema),
    name: 'create',
    description: 'Create a draft order for a delegated merchant (convert it to reserve stock)',
    method: 'POST',
    mode: 'create',
    // The spec's create path (4.5), relative to the base URL; POST /ops/draft-orders is the same operation.
    path: () => '/api/orders/draft-orders/create-draft-order',
    fields: [
      {
        key: 'merchant_team_id',
        flag: '--merchant',
        alias: '--merchant-team',
        arg: 'name|id',
        description: 'merchant (optional when exactly one is delegated)',
        ref: 'merchant',
      },
      { key: 'shop_id', arg: 'id', description: 'sales channel shop' },
      { key: 'priority', type: 'enum', values: ENUMS.priority, description: 'order priority (default NORMAL)' },
      {
        key: 'payment_status',
        type: 'enum',
        values: ENUMS.draft_payment_status,
        description: 'PENDING (default: the order is held) or PAID',
      },
      { key: 'order_number', arg: 'number', description: 'order number (default: generated)' },
      { key: 'customer.name', flag: '--customer-name', arg: 'name', description: 'customer name' },
      { key: 'customer.email', flag: '--customer-email', arg: 'email', description: 'customer e-mail' },
      { key: 'shipping_method', arg: 'method', description: 'shipping method' },
      { key: 'currency', description: 'ISO 4217 (default USD)' },
      { key: 'note', description: 'order note' },
      { key: 'tags', flag: '--tag', type: 'list', description: 'tags (comma-separated or repeated)' },
      // Carried to the order at conversion, where no automation rule overwrites it.
      ...CARRIER_SELECTION_FIELDS,
    ],
    configure: (cmd) =>
      addItemOption(cmd, {
        flag: '--line-item <sku=…,quantity=…,price=…>',
        description: 'line item by sku or product_id (repeatable)',
        numbers: ['quantity', 'price', 'applied_discount_amount'],
        integers: ['quantity'],
        required: ['quantity', 'price'],
        oneOf: ['sku', 'product_id'],
      }),
    transform: (body, opts) => {
      const out = opts.lineItem ? { ...body, line_items: opts.lineItem } : body;
      if (!Array.isArray(out.line_items) || out.line_items.length === 0)
        throw new UsageError('pass at least one --line-item (or line_items in --data)');
      if (out.shipping_address === undefined)
        throw new UsageError(
          'missing shipping_address: pass -f shipping_address.name=… -f shipping_address.address1=… (city, country) or --data',
        );
      return out;
    },
    examples: [
      'fos draft-orders create --line-item sku=MUG-BLUE,quantity=2,price=12.5 -f shipping_address.name="Ada Lovelace" \\\n' +
        '      -f shipping_address.address1="1 Main St" -f shipping_address.city=Leeds -f shipping_address.country=GB',
      'fos draft-orders create --data @draft.json --priority HIGH',
      'fos draft-orders create --data @draft.json --carrier-id usps --rate-strategy cheapest_within_days --within-days 3',
    ],
  });
}
