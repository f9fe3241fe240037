import { ENUMS } from '../../enums.js';
import { dimensionFields } from '../../shared/dimensions.js';
import type { FieldSpec } from '../../shared/flags.js';
import type { ItemSpec } from '../../shared/items.js';
import { resourcePath } from '../../shared/resource.js';
import { RATE_OPTION_FIELDS } from '../../shared/rate-options.js';

export const PACKAGE_FIELDS: FieldSpec[] = [
  { key: 'name', description: 'package name' },
  ...dimensionFields(''),
  { key: 'rate_strategy', type: 'enum', values: ENUMS.rate_strategy, description: 'carrier rate shopping strategy' },
  ...RATE_OPTION_FIELDS,
  { key: 'carton_id', arg: 'id', description: 'carton used' },
];

/** `--item sku=MUG,quantity=2[,product_id=…][,lot_code=…][,id=…]` -> a package_line_items entry. */
export const packageItem = (description: string): ItemSpec => ({
  flag: '--item <sku=…,quantity=…>',
  description,
  numbers: ['quantity'],
  integers: ['quantity'],
  required: ['quantity'],
  oneOf: ['sku', 'product_id', 'id', 'core_fulfillment_order_line_item_id'],
});

export const packagePath = (id?: string, action?: string) => resourcePath('/ops/packages', id, action);

export function withItems(body: Record<string, unknown>, opts: Record<string, unknown>): Record<string, unknown> {
  return opts.item ? { ...body, package_line_items: opts.item } : body;
}
