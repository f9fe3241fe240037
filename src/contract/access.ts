import { Type } from 'typebox';
import { PERMISSIONS, POWER_ROLES } from './enums.js';
import { TIER_LIMITS } from './enums.js';
import { Id, IdParams, listOf, Opt, pageQuery, StringEnum, Timestamp } from './common.js';

// Schemas of /v1/keys and /v1/roles. Responses never carry a token or its hash: only the
// creation response has `token`, and lists/details show `token_hint`.

const KeyName = Type.String({ minLength: 1, maxLength: 100, description: 'shown in lists; need not be unique' });
const RoleName = Type.String({ minLength: 1, maxLength: 100, description: 'unique within the team' });
const Description = Type.String({ maxLength: 1000 });
const PowerRole = StringEnum(POWER_ROLES, {
  description: 'ADMIN holds every permission; MEMBER only those of its custom roles',
});
const Permission = StringEnum(PERMISSIONS);
const tiers = Object.entries(TIER_LIMITS)
  .map(([t, n]) => `${t} = ${n}`)
  .join(', ');
const Tier = Type.Integer({
  minimum: 1,
  maximum: 4,
  description: `Rate tier (requests per 60 s: ${tiers}). Only an ADMIN key may set a tier above 1.`,
});
const RoleIds = Type.Array(Id, { maxItems: 100, description: 'custom roles of this team (duplicates are ignored)' });

export const KeyIdParams = IdParams('key_id');
export const RoleIdParams = IdParams('role_id');
export const ListQuery = Type.Object(pageQuery());

const RoleRef = Type.Object({ id: Type.String(), name: Type.String() });

export const KeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  power_role: PowerRole,
  state: StringEnum(['ACTIVE', 'DISABLED'] as const),
  rate_tier: Type.Integer(),
  token_hint: Type.String({ description: 'last 4 characters of the token, e.g. "fos_…a1B2"' }),
  team_id: Type.String(),
  roles: Type.Array(RoleRef),
  permissions: Type.Array(Permission, { description: 'effective permissions: the deduplicated union of the roles (all for ADMIN)' }),
  expires_at: Opt(Timestamp),
  created_by: Opt(Type.String({ description: 'id of the key that created it, or "bootstrap" / "admin-cli"' })),
  disabled_at: Opt(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreatedKeySchema = Type.Object({
  ...KeySchema.properties,
  token: Type.String({ description: 'the API key; shown only in this response', 'x-shown-once': true }),
});

export const KeyListSchema = listOf(KeySchema);

export const CreateKeyBody = Type.Object(
  {
    name: KeyName,
    description: Type.Optional(Description),
    power_role: Type.Optional(PowerRole),
    role_ids: Type.Optional(RoleIds),
    rate_tier: Type.Optional(Tier),
    expires_at: Type.Optional(
      Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'when the key stops authenticating (ISO 8601, in the future); null = never',
      }),
    ),
  },
  { additionalProperties: false },
);

export const KeyRolesBody = Type.Object({ role_ids: RoleIds }, { additionalProperties: false });
export const KeyTierBody = Type.Object({ tier: Tier }, { additionalProperties: false });

export const RoleSchema = Type.Object({
  id: Type.String(),
  team_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  permissions: Type.Array(Permission),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const RoleListSchema = listOf(RoleSchema);

const Permissions = Type.Array(Permission, { maxItems: 100, description: 'duplicates are ignored' });

export const CreateRoleBody = Type.Object(
  { name: RoleName, description: Type.Optional(Description), permissions: Permissions },
  { additionalProperties: false },
);

export const UpdateRoleBody = Type.Object(
  { name: Type.Optional(RoleName), description: Type.Optional(Description), permissions: Type.Optional(Permissions) },
  { additionalProperties: false, minProperties: 1 },
);

/** GET /v1/me: the calling key and its team (`fos login` verifies a key with it). */
export const MeSchema = Type.Object({
  key_id: Type.String(),
  key_name: Type.String(),
  team_id: Type.String(),
  team_name: Type.String(),
  team_kind: StringEnum(['FULFILLER', 'MERCHANT'] as const),
  measurement_system: StringEnum(['METRIC', 'IMPERIAL'] as const),
  power_role: StringEnum(['ADMIN', 'MEMBER'] as const),
  permissions: Type.Array(Permission),
  rate_tier: Type.Integer(),
});
