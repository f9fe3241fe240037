import { Type } from 'typebox';
import { Id, Nullable, StringEnum, Timestamp, listOf, pageQuery } from './common.js';
import { INTEGRATION_TYPES } from './enums.js';

// Carrier integrations (docs/carriers.md). carrier_integration_type of packages and labels takes
// GENERIC (uploaded labels) and these types.

export const CARRIER_INTEGRATION_TYPES = ['GENERIC', ...INTEGRATION_TYPES] as const;

export const CarrierIntegrationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String({ description: INTEGRATION_TYPES.join(' | ') }),
  api_base_url: Nullable(Type.String({ description: "where its calls go (the platform's real address unless set)" })),
  warehouse_ids: Nullable(Type.Array(Type.String(), { description: 'warehouses it serves; null = all' })),
  enabled_carriers: Nullable(Type.Array(Type.String(), { description: 'carrier ids kept from its rates; null = all' })),
  enabled: Type.Boolean(),
  is_test: Type.Boolean({ description: 'a test carrier: the rate table, or a platform test key (EasyPost EZTK…, Shippo shippo_test_…)' }),
  has_credentials: Type.Boolean({ description: 'credentials are stored (sealed; never returned)' }),
  has_webhook_secret: Type.Boolean(),
  webhook_path: Nullable(Type.String({ description: 'where the platform posts tracking events: {base_url}/carriers/{id}/webhooks' })),
  built_in: Type.Boolean({ description: 'the built-in rate table of a team without integrations (read-only)' }),
  disabled_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const CarrierIntegrationListSchema = listOf(CarrierIntegrationSchema);

const Credentials = Type.Object(
  {
    api_key: Type.String({ minLength: 1, maxLength: 500, description: 'the platform API key (test keys first)' }),
    webhook_secret: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'EasyPost webhook secret / Shippo HMAC or URL token' }),
    ),
  },
  { additionalProperties: false },
);
const BaseUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });
const Ids = Type.Array(Id, { maxItems: 100, uniqueItems: true });
const Carriers = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, uniqueItems: true });
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const CarrierIntegrationCreateBody = Type.Object(
  {
    name: Name,
    type: StringEnum(INTEGRATION_TYPES),
    credentials: Type.Optional(Credentials),
    api_base_url: Type.Optional(BaseUrl),
    warehouse_ids: Type.Optional(Nullable(Ids)),
    enabled_carriers: Type.Optional(Nullable(Carriers)),
  },
  { additionalProperties: false },
);

export const CarrierIntegrationPatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    credentials: Type.Optional(Credentials),
    api_base_url: Type.Optional(Nullable(BaseUrl)),
    warehouse_ids: Type.Optional(Nullable(Ids)),
    enabled_carriers: Type.Optional(Nullable(Carriers)),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CarrierIntegrationListQuery = Type.Object({ ...pageQuery() });

export const CarrierIntegrationTestSchema = Type.Object({
  ok: Type.Boolean(),
  message: Type.String(),
  is_test: Type.Boolean(),
});

export const TrackingEventSchema = Type.Object({
  id: Type.String(),
  package_id: Type.String(),
  shipping_label_id: Type.String(),
  status: Type.String({ description: 'the shipment_status it moved the label to' }),
  provider_status: Nullable(Type.String()),
  message: Nullable(Type.String()),
  location: Nullable(Type.Object({}, { additionalProperties: true })),
  occurred_at: Timestamp,
  created_at: Timestamp,
});
export const TrackingEventListSchema = listOf(TrackingEventSchema);
export const TrackingEventListQuery = Type.Object({ ...pageQuery() });

export const CarrierWebhookAck = Type.Object({ received: Type.Boolean(), applied: Type.Boolean() });
