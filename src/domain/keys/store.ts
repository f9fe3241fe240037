import type { Db, Prisma, TxClient } from '../../db/types.js';

// The keys area's data access (issue 38 item 4): API keys, their role links and the roles, read
// and written through Prisma. The rules (who may grant what, compare-and-set checks) stay in
// keys.ts and roles.ts; every function here is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;
type PageWindow = { where: Prisma.ApiKeyWhereInput; orderBy: never; skip: number; take: number };

/** A key as presented: its roles' ids, names and permissions. */
const keyInclude = { roles: { include: { role: { select: { id: true, name: true, permissions: true } } } } } as const;

export function findTeamKey(client: Client, teamId: string, id: string) {
  return client.apiKey.findFirst({ where: { id, team_id: teamId }, include: keyInclude });
}

export type KeyRow = NonNullable<Awaited<ReturnType<typeof findTeamKey>>>;

/** One page of keys (pageArgs' window), with their roles. */
export function findKeyPage(client: Client, window: PageWindow) {
  return client.apiKey.findMany({ ...window, include: keyInclude });
}

/** The key with its role links, returned as presented. */
export function insertKey(tx: TxClient, data: Omit<Prisma.ApiKeyUncheckedCreateInput, 'roles'>, roleIds: string[]) {
  return tx.apiKey.create({ data: { ...data, roles: { create: roleIds.map((role_id) => ({ role_id })) } }, include: keyInclude });
}

/** The key by its token's hash, with its team and its roles' permissions (authentication). */
export function findKeyByHash(client: Client, tokenHash: string) {
  return client.apiKey.findUnique({
    where: { token_hash: tokenHash },
    include: { team: true, roles: { include: { role: { select: { permissions: true } } } } },
  });
}

export function findKeyTeamId(client: Client, id: string) {
  return client.apiKey.findUnique({ where: { id }, select: { team_id: true } });
}

/** Disables the team's key if it is ACTIVE (compare-and-set); the count of keys changed. */
export function disableActiveKey(client: Client, teamId: string, id: string, now: Date) {
  return client.apiKey.updateMany({ where: { id, team_id: teamId, state: 'ACTIVE' }, data: { state: 'DISABLED', disabled_at: now } });
}

export function deleteTeamKey(client: Client, teamId: string, id: string) {
  return client.apiKey.deleteMany({ where: { id, team_id: teamId } });
}

export function updateKeyTier(client: Client, teamId: string, id: string, tier: number) {
  return client.apiKey.updateMany({ where: { id, team_id: teamId }, data: { rate_tier: tier } });
}

/** Writes the key's updated_at: on PostgreSQL its row lock orders concurrent changes of the key. */
export function touchKey(tx: TxClient, id: string, now: Date) {
  return tx.apiKey.update({ where: { id }, data: { updated_at: now } });
}

/** Replaces the key's role links: deletes them all, then inserts these. */
export async function replaceKeyRoles(tx: TxClient, id: string, roleIds: string[]) {
  await tx.apiKeyRole.deleteMany({ where: { api_key_id: id } });
  if (roleIds.length) await tx.apiKeyRole.createMany({ data: roleIds.map((role_id) => ({ api_key_id: id, role_id })) });
}

// Roles.

/** The team's roles among these ids: their ids and permissions. */
export function findTeamRolesIn(client: Client, teamId: string, ids: string[]) {
  return client.role.findMany({ where: { id: { in: ids }, team_id: teamId }, select: { id: true, permissions: true } });
}

export function insertRole(client: Client, data: Prisma.RoleUncheckedCreateInput) {
  return client.role.create({ data });
}

/** One page of roles (pageArgs' window). */
export function findRolePage(client: Client, window: { where: Prisma.RoleWhereInput; orderBy: never; skip: number; take: number }) {
  return client.role.findMany(window);
}

export function findTeamRole(client: Client, teamId: string, id: string) {
  return client.role.findFirst({ where: { id, team_id: teamId } });
}

/** What a change of the role checks and records: its name, description, permissions and updated_at. */
export function findRoleForChange(client: Client, teamId: string, id: string) {
  return client.role.findFirst({
    where: { id, team_id: teamId },
    select: { name: true, description: true, permissions: true, updated_at: true },
  });
}

/** Updates the role unless it changed since `seen` (compare-and-set); the count of roles changed. */
export function updateRoleIfUnchanged(tx: TxClient, teamId: string, id: string, seen: Date, data: Prisma.RoleUpdateManyMutationInput) {
  return tx.role.updateMany({ where: { id, team_id: teamId, updated_at: seen }, data });
}

/** Deletes the role unless it changed since `seen` (compare-and-set); the count of roles deleted. */
export function deleteRoleIfUnchanged(tx: TxClient, teamId: string, id: string, seen: Date) {
  return tx.role.deleteMany({ where: { id, team_id: teamId, updated_at: seen } });
}

export function findTeamRolesNamed(client: Client, teamId: string, names: string[]) {
  return client.role.findMany({ where: { team_id: teamId, name: { in: names } } });
}

// The first start (src/domain/bootstrap.ts): its mark in system_state and the first key.

/** The mark a first start leaves, when one has run. */
export function findBootstrapMark(client: Client) {
  return client.systemState.findUnique({ where: { id: 'bootstrap' } });
}

/** The first start's mark; its unique id lets exactly one of several starting processes commit. */
export function insertBootstrapMark(tx: TxClient, at: Date) {
  return tx.systemState.create({ data: { id: 'bootstrap', value: { at: at.toISOString() } } });
}

/** A key without roles (the first start's ADMIN key). */
export function insertBareKey(tx: TxClient, data: Prisma.ApiKeyUncheckedCreateInput) {
  return tx.apiKey.create({ data });
}
