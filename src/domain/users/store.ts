import type { Db, Prisma, TxClient } from '../../db/types.js';

// The users area's data access (issue 38 item 4): people, their memberships (with roles) and
// browser sessions, through Prisma. The rules (email and password checks, who may sign in) stay
// in users.ts and sessions.ts; each function here is one statement on the client or transaction
// given.

type Client = Db['prisma'] | TxClient;

/** What teamAccess() needs of a user: memberships with their teams and roles' permissions. */
export const membershipsInclude = {
  memberships: {
    include: { team: { select: { id: true, name: true } }, roles: { include: { role: { select: { permissions: true } } } } },
    orderBy: { created_at: 'asc' as const },
  },
};

const membershipInclude = {
  team: { select: { id: true, name: true } },
  roles: { include: { role: { select: { id: true, name: true, permissions: true } } } },
} as const;

/** A user as presented: memberships (of `teamId` only, when given) with their roles. */
function userInclude(teamId?: string) {
  return { memberships: { where: teamId ? { team_id: teamId } : {}, include: membershipInclude, orderBy: { created_at: 'asc' as const } } };
}

// People.

export function findUser(client: Client, id: string, teamId?: string) {
  return client.user.findUnique({ where: { id }, include: userInclude(teamId) });
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

/** One page of users (pageArgs' window), as presented with `teamId`'s membership or all. */
export function findUserPage(
  client: Client,
  window: { where: Prisma.UserWhereInput; orderBy: never; skip: number; take: number },
  teamId: string | undefined,
) {
  return client.user.findMany({ ...window, include: userInclude(teamId) });
}

/** The user's id if the user exists (by id or email). */
export function findUserId(client: Client, where: { id: string } | { email: string }) {
  return client.user.findUnique({ where, select: { id: true } });
}

/** The user by email (normalised by the caller), with memberships and permissions: a sign-in's check. */
export function findUserByEmail(client: Client, email: string) {
  return client.user.findUnique({ where: { email }, include: membershipsInclude });
}

/** The user with memberships and permissions. */
export function findUserAccess(client: Client, id: string) {
  return client.user.findUnique({ where: { id }, include: membershipsInclude });
}

export function insertUser(tx: TxClient, data: Prisma.UserUncheckedCreateInput) {
  return tx.user.create({ data });
}

/** Disables the user if ACTIVE. */
export function disableActiveUser(client: Client, id: string, now: Date) {
  return client.user.updateMany({ where: { id, state: 'ACTIVE' }, data: { state: 'DISABLED', disabled_at: now } });
}

// Memberships.

export function teamExists(tx: TxClient, teamId: string) {
  return tx.team.findUnique({ where: { id: teamId }, select: { id: true } });
}

/** The team's roles among these ids (their ids). */
export function findTeamRoleIds(tx: TxClient, teamId: string, ids: string[]) {
  return tx.role.findMany({ where: { id: { in: ids }, team_id: teamId }, select: { id: true } });
}

/**
 * The membership with this power role, created or updated; writing the row first serialises
 * concurrent changes of one membership on PostgreSQL.
 */
export function upsertMembership(tx: TxClient, userId: string, teamId: string, powerRole: 'ADMIN' | 'MEMBER', now: Date) {
  return tx.userMembership.upsert({
    where: { user_id_team_id: { user_id: userId, team_id: teamId } },
    create: { user_id: userId, team_id: teamId, power_role: powerRole },
    update: { power_role: powerRole, updated_at: now },
  });
}

/** Replaces the membership's role links: deletes them all, then inserts these. */
export async function replaceMembershipRoles(tx: TxClient, membershipId: string, roleIds: string[]) {
  await tx.userMembershipRole.deleteMany({ where: { membership_id: membershipId } });
  if (roleIds.length)
    await tx.userMembershipRole.createMany({ data: roleIds.map((role_id) => ({ membership_id: membershipId, role_id })) });
}

// Sessions.

export function insertSession(client: Client, data: Prisma.UserSessionUncheckedCreateInput) {
  return client.userSession.create({ data });
}

/** Sessions that expired before `before` (a lazy PrismaPromise: it runs when awaited or caught). */
export function deleteSessionsExpiredBefore(client: Client, before: Date) {
  return client.userSession.deleteMany({ where: { expires_at: { lt: before } } });
}

/** The session with its person's memberships and permissions. */
export function findSession(client: Client, tokenHash: string) {
  return client.userSession.findUnique({ where: { token_hash: tokenHash }, include: { user: { include: membershipsInclude } } });
}

export function deleteSession(client: Client, tokenHash: string) {
  return client.userSession.deleteMany({ where: { token_hash: tokenHash } });
}
