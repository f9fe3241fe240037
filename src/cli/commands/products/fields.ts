import { ENUMS } from '../../enums.js';
import { dimensionFields } from '../../shared/dimensions.js';
import type { FieldSpec } from '../../shared/flags.js';
import { resourcePath } from '../../shared/resource.js';

/** Writable product fields with dedicated flags (others: --field key=value). */
export const PRODUCT_FIELDS: FieldSpec[] = [
  { key: 'name', description: 'product name', required: true },
  { key: 'type', type: 'enum', values: ENUMS.product_type, description: 'product type (create default: STANDARD)' },
  { key: 'sku', description: 'stock keeping unit' },
  { key: 'description', description: 'free text' },
  { key: 'barcode', description: 'barcode (ops family)' },
  { key: 'image_url', description: 'image URL' },
  ...dimensionFields(" (default: the team's measurement system)"),
  { key: 'cost_price', type: 'number', min: 0, description: 'cost price' },
  { key: 'cost_currency', description: 'ISO 4217 currency, e.g. USD' },
  { key: 'customs_value', type: 'number', min: 0, description: 'customs value' },
  { key: 'country_of_origin', description: 'ISO 3166 country code' },
  { key: 'hs_code', description: 'harmonized system code' },
];

export const productPath = (opts: Record<string, unknown>, id?: string) =>
  resourcePath(`/${opts.merchant ? 'merchant' : 'ops'}/products`, id);

export const MERCHANT_OPTION = ['--merchant', 'use the merchant family (/merchant/products)'] as const;
