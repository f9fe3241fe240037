// Product enumerations, write inputs and the mapping of an input to database columns.
// The route schemas (src/contract/products.ts) decide which of these fields each path
// family accepts; this module only turns accepted values into columns.

import { searchKey } from '../search.js';
import { PRODUCT_STORED_AS_SENT, type ProductInput } from '../../contract/products.js';

import { MEASUREMENT_UNITS, PLATFORMS, PRODUCT_TYPES, REPLENISHMENT_STRATEGIES, WEIGHT_UNITS } from '../../contract/enums.js';
export { MEASUREMENT_UNITS, PLATFORMS, PRODUCT_TYPES, REPLENISHMENT_STRATEGIES, WEIGHT_UNITS };

export type ProductType = (typeof PRODUCT_TYPES)[number];
export type Platform = (typeof PLATFORMS)[number];

export interface ComponentInput {
  component_product_id?: string;
  component_product_sku?: string;
  /** Defaults to 1. */
  component_quantity?: number;
}

export interface ProductConfig {
  replenishment_source_strategy: 'FIFO';
  replenishment_increment_level: number | null;
  replenishment_maximum_level: number | null;
  replenishment_minimum_level: number | null;
}

export type ConfigInput = Partial<Omit<ProductConfig, 'replenishment_source_strategy'>> & {
  replenishment_source_strategy?: 'FIFO';
};

/** Every writable product field (ops family); the merchant family accepts a subset. */
export type { ProductInput };

export interface CreateProductInput extends ProductInput {
  name: string;
  type: ProductType;
  /** Ops family only: create for a merchant team delegated to the caller. */
  merchant_team_id?: string;
}

export const DEFAULT_CONFIG: ProductConfig = {
  replenishment_source_strategy: 'FIFO',
  replenishment_increment_level: null,
  replenishment_maximum_level: null,
  replenishment_minimum_level: null,
};

/** The stored config as a complete object (absent members take their defaults). */
export function configOf(stored: unknown): ProductConfig {
  const c = (stored && typeof stored === 'object' ? stored : {}) as Partial<ProductConfig>;
  return {
    replenishment_source_strategy: c.replenishment_source_strategy ?? 'FIFO',
    replenishment_increment_level: c.replenishment_increment_level ?? null,
    replenishment_maximum_level: c.replenishment_maximum_level ?? null,
    replenishment_minimum_level: c.replenishment_minimum_level ?? null,
  };
}

/** Column values for the scalar fields present in input (undefined = leave as is; config apart). */
export function columnsOf(input: ProductInput): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of PRODUCT_STORED_AS_SENT) if (input[key] !== undefined) data[key] = input[key];
  if (input.first_article_inspection_completed_at !== undefined) {
    const at = input.first_article_inspection_completed_at;
    data.first_article_inspection_completed_at = at === null ? null : new Date(at);
  }
  return data;
}

/**
 * The config to store: the input merges into the stored one member by member, like a JSON merge
 * patch; null resets every member to its default.
 */
export function mergeConfig(input: ConfigInput | null, stored: unknown): ProductConfig {
  if (input === null) return { ...DEFAULT_CONFIG };
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return { ...configOf(stored), ...patch };
}

/** Search columns; written with every change of name, sku or barcode. */
export function searchColumns(p: { name: string; sku: string | null; barcode: string | null }) {
  return {
    search_text: [p.name, p.sku, p.barcode].map(searchKey).join('\n'),
    name_sku_search_text: [p.name, p.sku].map(searchKey).join('\n'),
  };
}
