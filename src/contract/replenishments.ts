import { Type } from 'typebox';
import { listOf, Nullable, pageQuery } from './common.js';

// Replenishment tasks (issue 28; docs/floor.md): computed from stock by bin, nothing stored.

const { id_prefix: _idPrefix, ...paging } = pageQuery({ maxLimit: 1000 });

export const ReplenishmentListQuery = Type.Object(
  {
    ...paging,
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated' })),
    product_id: Type.Optional(Type.String({ maxLength: 4000, description: 'product ids, comma-separated' })),
  },
  { additionalProperties: false },
);

export const ReplenishmentSchema = Type.Object({
  product_id: Type.String(),
  sku: Nullable(Type.String()),
  product_name: Type.String(),
  warehouse_id: Type.String(),
  to_location: Type.String({ description: 'the pickable bin to fill (name): the putaway rule' }),
  to_location_id: Type.String(),
  minimum_level: Type.Number({ description: "the product's config.replenishment_minimum_level" }),
  pickable_on_hand: Type.Integer({ description: 'units in PICKABLE bins, expired lots left out' }),
  overstock_available: Type.Integer({ description: 'units in OVERSTOCK bins, expired lots left out' }),
  quantity_needed: Type.Integer({ description: 'minimum_level - pickable_on_hand' }),
  quantity_suggested: Type.Integer({
    description:
      'up to replenishment_maximum_level (else the minimum), rounded up to replenishment_increment_level, at most overstock_available',
  }),
  from_locations: Type.Array(
    Type.Object({
      location: Type.String({ description: 'the overstock bin (name): from_location of the move' }),
      location_id: Type.String(),
      lot_code: Nullable(Type.String()),
      expiration_date: Nullable(Type.String()),
      available: Type.Integer(),
      quantity: Type.Integer({ description: 'units to take from this bin and lot for quantity_suggested' }),
    }),
    { description: 'overstock bins holding the product, earliest expiry first (FEFO)' },
  ),
});

export const ReplenishmentListSchema = listOf(ReplenishmentSchema);
