import { Type } from 'typebox';
import { LABEL_BATCH_ITEM_STATUSES, LABEL_BATCH_STATUSES, LABEL_FORMATS } from './enums.js';
import { rateFieldsInput, rateFieldsOutput } from './rate-strategy.js';
import { Id, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';

// Label batches: many packages labelled by one request, one merged file (docs/label-batches.md).

export const LABEL_BATCH_MAX = 2_000;

const packageSet = (description: string) =>
  Type.Optional(Type.Array(Id, { minItems: 1, maxItems: LABEL_BATCH_MAX, uniqueItems: true, description }));

export const CreateLabelBatchBody = Type.Object(
  {
    package_ids: packageSet('these packages, in this order'),
    picking_session_id: Type.Optional(Id),
    fulfillment_order_ids: packageSet('the open packages of these fulfillment orders, in this order'),
    // For packages without a strategy of their own (default: each package's, else CHEAPEST); the
    // options apply with the strategy they come with.
    ...rateFieldsInput(),
    carrier_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'only rates of this carrier' })),
    service_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'only this service' })),
    label_format: Type.Optional(StringEnum(LABEL_FORMATS, { description: 'the merged file: 4x6 PDF (default) or one ZPL stream' })),
    packing_slips: Type.Optional(Type.Boolean({ description: 'PDF: each label followed by its packing slip', default: false })),
  },
  { additionalProperties: false },
);

export const LabelBatchItemSchema = Type.Object({
  package_id: Type.String(),
  position: Type.Integer({ description: 'place in the merged file, from 1' }),
  status: StringEnum(LABEL_BATCH_ITEM_STATUSES),
  message: Nullable(Type.String({ description: "FAILED: the carrier's or fos's reason; SKIPPED: why" })),
  tracking_number: Nullable(Type.String()),
  carrier_id: Nullable(Type.String()),
  service_id: Nullable(Type.String()),
  cost: Nullable(Type.Number()),
  cost_currency: Nullable(Type.String()),
});

const counts = {
  package_count: Type.Integer(),
  pending: Type.Integer(),
  bought: Type.Integer(),
  failed: Type.Integer(),
  skipped: Type.Integer(),
};

const batchFields = {
  id: Type.String(),
  status: StringEnum(LABEL_BATCH_STATUSES),
  ...counts,
  ...rateFieldsOutput(),
  carrier_id: Nullable(Type.String()),
  service_id: Nullable(Type.String()),
  label_format: StringEnum(LABEL_FORMATS),
  packing_slips: Type.Boolean(),
  picking_session_id: Nullable(Type.String()),
  labels_url: Type.String({ description: 'the merged file of the labels bought so far (GET …/labels)' }),
  summary_url: Type.String({ description: 'a CSV of the items (GET …/summary.csv)' }),
  fulfiller_team_id: Type.String(),
  created_by_key_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  completed_at: Nullable(Timestamp),
};

export const LabelBatchSummarySchema = Type.Object(batchFields);
export const LabelBatchSchema = Type.Object({ ...batchFields, items: Type.Array(LabelBatchItemSchema) });
export const LabelBatchListSchema = listOf(LabelBatchSummarySchema);

export const LabelBatchListQuery = Type.Object(
  { ...pageQuery(), status: Type.Optional(StringEnum(LABEL_BATCH_STATUSES)) },
  { additionalProperties: false },
);

export const LabelBatchParams = Type.Object({ label_batch_id: Id });
