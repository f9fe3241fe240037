import { Type } from 'typebox';
import { Id, IdParams, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';

// The audit log (issue 42, docs/audit.md): who changed what, when, from where.

export const AUDIT_ACTOR_TYPES = ['KEY', 'CONNECTION', 'USER', 'CLI', 'ANONYMOUS'] as const;

const Text = (description: string) => Nullable(Type.String({ description }));

export const AuditEventSchema = Type.Object({
  id: Id,
  created_at: Timestamp,
  actor: Type.Object({
    type: StringEnum(AUDIT_ACTOR_TYPES),
    id: Text('the API key, connection or user id'),
    name: Text("the key's or connection's name, or the person's"),
    user_id: Text('the person behind a connection (agent or /floor sign-in)'),
  }),
  ip: Text('the client address (behind --trust-proxy: the forwarded one)'),
  user_agent: Text('the User-Agent header'),
  action: Type.String({ description: 'the operation id (createMerchantProduct, …) or the admin command' }),
  method: Text('HTTP method'),
  path: Text('the request path'),
  target: Type.Object({
    type: Text('order, product, fulfillment_order, key, …'),
    id: Text('the target id'),
    key: Text('its human key: SKU, order number, name'),
  }),
  changes: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description: '{field: {from?, to}}: the request fields and the resulting values; secrets are "[redacted]"',
    }),
  ),
  trace_id: Text('the x-trace-id of the request'),
});

export const AuditEventListSchema = listOf(AuditEventSchema);
export const AuditEventIdParams = IdParams('event_id');

export const AuditListQuery = Type.Object({
  ...pageQuery(),
  actor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'events of this key, connection or user' })),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'events on this kind of target' })),
  target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'events on this target' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'events of this operation id' })),
  created_at_min: Type.Optional(Type.String({ format: 'date-time', description: 'at or after' })),
  created_at_max: Type.Optional(Type.String({ format: 'date-time', description: 'before' })),
});
