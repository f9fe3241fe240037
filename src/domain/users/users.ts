import type { Db, TxClient } from '../../db/types.js';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { effectivePermissions } from '../../contract/permissions.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { hashPassword } from './password.js';
import { transaction } from '../../db/tx.js';
import * as store from './store.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../contract/enums.js';
export { PASSWORD_MAX, PASSWORD_MIN };

// People: a user signs in (the OAuth consent page) and belongs to teams through memberships that
// carry a power role and custom roles, exactly as a key does (permissions = deduplicated union).

export type PowerRole = 'ADMIN' | 'MEMBER';

export interface MembershipInput {
  power_role?: PowerRole;
  role_ids?: string[];
}

export interface CreateUserInput extends MembershipInput {
  email: string;
  display_name: string;
  password: string;
  /** Team the user joins at creation (the caller's team through the API). */
  team_id?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Never the password hash. With a team, only that team's membership is shown. */
export function presentUser(user: store.UserRow) {
  return {
    id: user.id,
    email: user.email,
    display_name: user.display_name,
    state: user.state,
    memberships: user.memberships.map((m) => ({
      team_id: m.team_id,
      team_name: m.team.name,
      power_role: m.power_role,
      roles: m.roles.map((r) => ({ id: r.role.id, name: r.role.name })).sort((a, b) => a.name.localeCompare(b.name)),
      permissions: [
        ...effectivePermissions(
          m.power_role,
          m.roles.map((r) => r.role.permissions),
        ),
      ].sort(),
    })),
    created_by: user.created_by,
    disabled_at: user.disabled_at,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL.test(e)) throw invalid('body.email', 'must be an email address');
  return e;
}

export function checkPassword(password: string) {
  if (password.length < PASSWORD_MIN) throw invalid('body.password', `must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) throw invalid('body.password', `must be at most ${PASSWORD_MAX} characters`);
}

async function teamRoles(tx: TxClient, teamId: string, roleIds: string[]) {
  const unique = [...new Set(roleIds)];
  if (!unique.length) return [];
  const roles = await store.findTeamRoleIds(tx, teamId, unique);
  const missing = unique.filter((id) => !roles.some((r) => r.id === id));
  if (missing.length) throw notFound(missing.length > 1 ? 'Roles' : 'Role', missing.join(', '));
  return roles;
}

/** Creates or replaces the user's membership of a team (power role and roles), in the caller's transaction. */
async function writeMembership(tx: TxClient, userId: string, teamId: string, input: MembershipInput) {
  const team = await store.teamExists(tx, teamId);
  if (!team) throw notFound('Team', teamId);
  const roles = await teamRoles(tx, teamId, input.role_ids ?? []);
  // Writing the membership row first serialises concurrent changes of one membership on PostgreSQL.
  const m = await store.upsertMembership(tx, userId, teamId, input.power_role ?? 'MEMBER', new Date());
  await store.replaceMembershipRoles(
    tx,
    m.id,
    roles.map((r) => r.id),
  );
}

const uniqueViolation = (err: unknown) => (err as { code?: unknown }).code === 'P2002';

export async function createUser(db: Db, input: CreateUserInput, by: string | null) {
  const email = normaliseEmail(input.email);
  const displayName = input.display_name.trim();
  if (!displayName) throw invalid('body.display_name', 'must not be blank');
  checkPassword(input.password);
  const password_hash = await hashPassword(input.password);
  const id = await transaction(db, async (tx) => {
    const user = await store.insertUser(tx, { email, display_name: displayName, password_hash, created_by: by });
    if (input.team_id) await writeMembership(tx, user.id, input.team_id, input);
    return user.id;
  }).catch((err) => {
    if (uniqueViolation(err)) throw conflict(`A user with the email ${email} already exists.`);
    throw err;
  });
  return getUser(db, id, input.team_id);
}

export async function getUser(db: Db, id: string, teamId?: string) {
  const user = await store.findUser(db.prisma, id, teamId);
  if (!user || (teamId && !user.memberships.length)) throw notFound('User', id);
  return presentUser(user);
}

/** Users of one team (only that membership shown), or every user when teamId is absent (admin CLI). */
export async function listUsers(db: Db, teamId: string | undefined, page: PageRequest) {
  const orderBy = [{ created_at: 'asc' }, { id: 'asc' }];
  const rows = await store.findUserPage(
    db.prisma,
    pageArgs(page, teamId ? { memberships: { some: { team_id: teamId } } } : {}, orderBy),
    teamId,
  );
  const result = toPage(rows, page, undefined, orderBy);
  return { data: result.data.map(presentUser), meta: result.meta };
}

export async function addUserToTeam(db: Db, userId: string, teamId: string, input: MembershipInput) {
  await transaction(db, async (tx) => {
    const user = await store.findUserId(tx, { id: userId });
    if (!user) throw notFound('User', userId);
    await writeMembership(tx, userId, teamId, input);
  }).catch((err) => {
    if ((err as { code?: unknown }).code === 'P2003') throw notFound('Role', 'named in role_ids');
    throw err;
  });
  return getUser(db, userId);
}

/** Idempotent. A disabled user cannot sign in and their connections stop working at once. */
export async function disableUser(db: Db, id: string) {
  const user = await store.findUserId(db.prisma, { id });
  if (!user) throw notFound('User', id);
  await store.disableActiveUser(db.prisma, id, new Date());
  return getUser(db, id);
}

/** The API creates users for ADMIN keys only: a person may be granted any permission of the team. */
export function assertAdminKey(powerRole: PowerRole) {
  if (powerRole !== 'ADMIN') throw forbidden('Only an ADMIN key can list or create users.');
}

/** Admin CLI: a user by id or email. */
export async function findUserId(db: Db, idOrEmail: string): Promise<string> {
  const where = idOrEmail.includes('@') ? { email: idOrEmail.trim().toLowerCase() } : { id: idOrEmail };
  const user = await store.findUserId(db.prisma, where);
  if (!user) throw notFound('User', idOrEmail);
  return user.id;
}
