import { Type } from 'typebox';
import { Id, IdParams, listOf, Nullable, pageQuery, Timestamp } from './common.js';

// Work orders: kits (ASSEMBLY products) built from their components (issue 28; docs/floor.md).

export const CreateWorkOrderBody = Type.Object(
  {
    product_id: Id,
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'assemblies to build' }),
    warehouse_id: Id,
    location_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'the bin the built units go to (id, name or barcode); default: the putaway suggestion',
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const WorkOrderSchema = Type.Object({
  id: Type.String({ description: 'work_order_id and reference_id of the movements it wrote' }),
  product_id: Type.String({ description: 'the ASSEMBLY product built' }),
  sku: Nullable(Type.String()),
  warehouse_id: Type.String(),
  quantity: Type.Integer(),
  location_id: Type.String({ description: 'the bin the built units went to' }),
  location_name: Nullable(Type.String()),
  status: Type.Literal('COMPLETED', { description: 'a work order is built in one transaction: it exists only once completed' }),
  note: Nullable(Type.String()),
  components: Type.Array(
    Type.Object({
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Number({ description: 'units consumed' }),
      parts: Type.Array(
        Type.Object({
          location_id: Nullable(Type.String()),
          location_name: Nullable(Type.String()),
          lot_code: Nullable(Type.String()),
          expiration_date: Nullable(Type.String()),
          quantity: Type.Integer(),
        }),
        { description: 'the bins and lots the units came from (pick order: pickable first, FEFO)' },
      ),
    }),
  ),
  actor_key_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const { id_prefix: _idPrefix, ...paging } = pageQuery({ maxLimit: 1000 });

export const WorkOrderListQuery = Type.Object(
  {
    ...paging,
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated' })),
    product_id: Type.Optional(Type.String({ maxLength: 4000, description: 'assembly product ids, comma-separated' })),
  },
  { additionalProperties: false },
);

export const WorkOrderParams = IdParams('work_order_id');
export const WorkOrderListSchema = listOf(WorkOrderSchema);
