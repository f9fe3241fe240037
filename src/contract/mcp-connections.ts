import { Type } from 'typebox';
import { CONNECTION_STATES, PRESETS } from './enums.js';
import { CONNECTION_PERMISSIONS } from './permissions.js';
import { IdParams, listOf, Opt, pageQuery, StringEnum, Timestamp, Uuid } from './common.js';

// Schemas of /v1/mcp-connections: agent connections made through the OAuth sign-in (spec 5.3).

const Permission = StringEnum(CONNECTION_PERMISSIONS);

export const McpConnectionSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'the name the person gave the connection on the consent page' }),
  client_id: Type.String(),
  client_name: Type.String({ description: 'the OAuth client (Claude, an IDE, …) as it registered' }),
  team_id: Type.String(),
  team_name: Type.String(),
  user_id: Type.String(),
  user_email: Type.String(),
  user_name: Type.String(),
  preset: StringEnum(PRESETS),
  granted_permissions: Type.Array(Permission, { description: 'chosen on the consent page' }),
  permissions: Type.Array(Permission, { description: 'what it can do now: granted_permissions bounded by what the person holds today' }),
  rate_tier: Type.Integer({ description: 'its own counter of operations (execute_svc_operation calls) per minute' }),
  status: StringEnum([...CONNECTION_STATES, 'USER_DISABLED'] as const, {
    description: 'USER_DISABLED: its person was disabled, so it works no more',
  }),
  created_at: Timestamp,
  last_used_at: Opt(Timestamp),
  revoked_at: Opt(Timestamp),
});

export const McpConnectionListSchema = listOf(McpConnectionSchema);
export const McpConnectionListQuery = Type.Object({
  ...pageQuery(),
  status: Type.Optional(StringEnum(CONNECTION_STATES)),
  user_id: Type.Optional(Uuid),
});
export const McpConnectionParams = IdParams('mcp_connection_id');
