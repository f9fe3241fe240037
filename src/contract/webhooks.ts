import { Type } from 'typebox';
import { Nullable, StringEnum, Timestamp, listOf, pageQuery } from './common.js';
import { DELIVERY_STATUSES, EVENT_KINDS } from './enums.js';

const TEST_DESCRIPTION =
  "true: a test endpoint, sent test labels' tracking numbers and URLs as they are; false (the default): " +
  'events about a test label (the rate-table carrier) arrive with tracking_code and tracking_url null and test_label: true';

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String(), { description: `event kinds, or ["*"] for all: ${EVENT_KINDS.join(', ')}` }),
  active: Type.Boolean(),
  test: Type.Boolean({ description: TEST_DESCRIPTION }),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** Reads never carry the secret. */
export const WebhookSchema = Type.Object(endpointFields);
export const WebhookListSchema = listOf(WebhookSchema);
export const CreatedWebhookSchema = Type.Object({
  ...endpointFields,
  secret: Type.String({ description: 'whsec_…: the HMAC signing secret, shown only in this response', 'x-shown-once': true }),
});

const Url = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });
const Events = Type.Array(StringEnum(['*', ...EVENT_KINDS] as const), { minItems: 1, maxItems: 50, uniqueItems: true });
const Description = Type.String({ maxLength: 500 });

export const WebhookCreateBody = Type.Object(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    test: Type.Optional(Type.Boolean({ description: TEST_DESCRIPTION, default: false })),
  },
  { additionalProperties: false },
);

export const WebhookPatchBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    active: Type.Optional(Type.Boolean()),
    test: Type.Optional(Type.Boolean({ description: TEST_DESCRIPTION })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const DeliverySchema = Type.Object({
  id: Type.String(),
  endpoint_id: Type.String(),
  event_id: Type.String(),
  event_kind: Type.String(),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Timestamp),
  response_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  delivered_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const DeliveryListQuery = Type.Object({
  ...pageQuery(),
  status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
});
export const WebhookListQuery = Type.Object({ ...pageQuery() });

// ---- The team's event stream (fos webhooks listen) ----

export const EventPollQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        format: 'uuid',
        maxLength: 36,
        description: 'the id of the last event received (meta.next_after); omitted: from now on',
      }),
    ),
    types: Type.Optional(
      Type.String({ maxLength: 1000, description: 'comma-separated event types, `order.*` for a family; omitted or `*`: every type' }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 25,
        default: 0,
        description: 'seconds to wait for an event before answering with none (long poll)',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  },
  { additionalProperties: false },
);

export const StreamEventSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  created_at: Timestamp,
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'the payload a webhook delivery of this event carries' }),
});

export const EventPollSchema = Type.Object({
  data: Type.Array(StreamEventSchema),
  meta: Type.Object({ next_after: Type.String({ description: 'pass as `after` on the next request' }) }),
});

export const TriggerEventBody = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 100, description: 'an event type, e.g. order.created' }),
  },
  { additionalProperties: false },
);
