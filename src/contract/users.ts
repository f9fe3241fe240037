import { Type } from 'typebox';
import { PERMISSIONS, POWER_ROLES } from './enums.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './enums.js';
import { Id, listOf, Opt, pageQuery, StringEnum, Timestamp } from './common.js';

// Schemas of /v1/users. Responses never carry a password or its hash.

const PowerRole = StringEnum(POWER_ROLES, {
  description: 'ADMIN holds every permission of the team; MEMBER only those of its custom roles',
});
const RoleRef = Type.Object({ id: Type.String(), name: Type.String() });

export const MembershipSchema = Type.Object({
  team_id: Type.String(),
  team_name: Type.String(),
  power_role: PowerRole,
  roles: Type.Array(RoleRef),
  permissions: Type.Array(StringEnum(PERMISSIONS), { description: 'the deduplicated union of the roles (all for ADMIN)' }),
});

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  state: StringEnum(['ACTIVE', 'DISABLED'] as const),
  memberships: Type.Array(MembershipSchema, { description: "through the API: the membership of the caller's team only" }),
  created_by: Opt(Type.String({ description: 'id of the key that created it, or "admin-cli"' })),
  disabled_at: Opt(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const UserListSchema = listOf(UserSchema);
export const UserListQuery = Type.Object(pageQuery());

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }),
    display_name: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description: 'stored only as a scrypt hash' }),
    power_role: Type.Optional(PowerRole),
    role_ids: Type.Optional(Type.Array(Id, { maxItems: 100, description: 'custom roles of this team (duplicates are ignored)' })),
  },
  { additionalProperties: false },
);
