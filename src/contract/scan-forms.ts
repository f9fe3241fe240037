import { Type } from 'typebox';
import { Day, Id, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';

// Scan forms: end-of-day manifests (issue 12 item 2; docs/scan-forms.md).

export const CreateScanFormBody = Type.Object(
  {
    warehouse_id: Id,
    carrier_id: Type.String({ minLength: 1, maxLength: 100, description: 'carrier_id of the labels, e.g. ups' }),
    date: Type.Optional(Day('day (UTC) the labels were bought; default today')),
    package_ids: Type.Optional(
      Type.Array(Id, {
        minItems: 1,
        maxItems: 10_000,
        uniqueItems: true,
        description: 'only these packages (each must qualify, or 409 listing the others); default: every qualifying package',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ScanFormSchema = Type.Object({
  id: Type.String(),
  scan_status: StringEnum(['SCANNED'] as const),
  warehouse_id: Type.String(),
  warehouse_name: Nullable(Type.String()),
  carrier_id: Type.String(),
  carrier_name: Nullable(Type.String()),
  form_date: Type.String({ description: 'day (UTC) of the labels it gathers' }),
  package_count: Type.Integer(),
  manifest_url: Nullable(Type.String({ description: 'the manifest PDF (GET /v1/ops/scan-forms/{id}/manifest)' })),
  fulfiller_team_id: Type.String(),
  created_by_key_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ScanFormListSchema = listOf(ScanFormSchema);

export const ScanFormListQuery = Type.Object(
  {
    ...pageQuery(),
    warehouse_id: Type.Optional(Id),
    carrier_id: Type.Optional(Type.String({ maxLength: 100 })),
    form_date: Type.Optional(Day('scan forms of this day (UTC)')),
  },
  { additionalProperties: false },
);

export const ScanFormParams = Type.Object({ scan_form_id: Id });
