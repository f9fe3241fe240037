import type { Db } from '../../db/types.js';
import { conflict, invalid, notFound } from '../errors.js';
import { effectivePermissions } from '../permissions.js';
import { pageWindow, toPage, type PageRequest } from '../pagination.js';
import { generateToken, hashToken, tokenHint } from './token.js';

export interface CreateKeyInput {
  name: string;
  description?: string;
  power_role?: 'ADMIN' | 'MEMBER';
  role_ids?: string[];
  rate_tier?: number;
  expires_at?: string | null;
}

const keyInclude = { roles: { include: { role: { select: { id: true, name: true, permissions: true } } } } } as const;

type KeyRow = Awaited<ReturnType<typeof loadKey>>;

function loadKey(db: Db, teamId: string, id: string) {
  return db.prisma.apiKey.findFirst({ where: { id, team_id: teamId }, include: keyInclude });
}

/** The credential record as shown after creation: never the token, never its hash. */
export function presentKey(key: NonNullable<KeyRow>) {
  const roles = key.roles.map((r) => ({ id: r.role.id, name: r.role.name }));
  return {
    id: key.id,
    name: key.name,
    description: key.description,
    power_role: key.power_role,
    state: key.state,
    rate_tier: key.rate_tier,
    token_hint: `fos_…${key.token_hint}`,
    team_id: key.team_id,
    roles,
    permissions: [...effectivePermissions(key.power_role, key.roles.map((r) => r.role.permissions))].sort(),
    expires_at: key.expires_at,
    created_by: key.created_by,
    disabled_at: key.disabled_at,
    created_at: key.created_at,
    updated_at: key.updated_at,
  };
}

async function assertRolesOfTeam(db: Db, teamId: string, roleIds: string[]) {
  const unique = [...new Set(roleIds)];
  const found = await db.prisma.role.count({ where: { id: { in: unique }, team_id: teamId } });
  if (found !== unique.length) throw invalid('role_ids', 'names a role that does not exist in this team');
  return unique;
}

export async function createKey(db: Db, teamId: string, input: CreateKeyInput, createdBy: string | null) {
  const roleIds = await assertRolesOfTeam(db, teamId, input.role_ids ?? []);
  const token = generateToken();
  const key = await db.prisma.apiKey.create({
    data: {
      team_id: teamId,
      name: input.name,
      description: input.description ?? '',
      power_role: input.power_role ?? 'MEMBER',
      token_hash: hashToken(token),
      token_hint: tokenHint(token),
      rate_tier: input.rate_tier ?? 1,
      expires_at: input.expires_at ? new Date(input.expires_at) : null,
      created_by: createdBy,
      roles: { create: roleIds.map((role_id) => ({ role_id })) },
    },
    include: keyInclude,
  });
  return { ...presentKey(key), token };
}

export async function listKeys(db: Db, teamId: string, page: PageRequest) {
  const rows = await db.prisma.apiKey.findMany({
    where: { team_id: teamId },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    include: keyInclude,
    ...pageWindow(page),
  });
  const result = toPage(rows, page);
  return { data: result.data.map(presentKey), meta: result.meta };
}

export async function getKey(db: Db, teamId: string, id: string) {
  const key = await loadKey(db, teamId, id);
  if (!key) throw notFound('API key', id);
  return presentKey(key);
}

export async function disableKey(db: Db, teamId: string, id: string) {
  const { count } = await db.prisma.apiKey.updateMany({
    where: { id, team_id: teamId, state: 'ACTIVE' },
    data: { state: 'DISABLED', disabled_at: new Date() },
  });
  if (count === 0 && !(await loadKey(db, teamId, id))) throw notFound('API key', id);
  return getKey(db, teamId, id);
}

export async function deleteKey(db: Db, teamId: string, id: string, callerKeyId?: string) {
  if (id === callerKeyId) throw conflict('A key cannot delete itself; disable or delete it with another key.');
  const { count } = await db.prisma.apiKey.deleteMany({ where: { id, team_id: teamId } });
  if (count === 0) throw notFound('API key', id);
}

export async function setKeyRoles(db: Db, teamId: string, id: string, roleIds: string[]) {
  const unique = await assertRolesOfTeam(db, teamId, roleIds);
  await db.prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
    if (!key) throw notFound('API key', id);
    await tx.apiKeyRole.deleteMany({ where: { api_key_id: id } });
    if (unique.length) await tx.apiKeyRole.createMany({ data: unique.map((role_id) => ({ api_key_id: id, role_id })) });
    await tx.apiKey.update({ where: { id }, data: { updated_at: new Date() } });
  });
  return getKey(db, teamId, id);
}

export async function setKeyTier(db: Db, teamId: string, id: string, tier: number) {
  const { count } = await db.prisma.apiKey.updateMany({ where: { id, team_id: teamId }, data: { rate_tier: tier } });
  if (count === 0) throw notFound('API key', id);
  return getKey(db, teamId, id);
}

/** Admin CLI: find a key by id across teams. */
export async function findKeyTeam(db: Db, id: string): Promise<string> {
  const key = await db.prisma.apiKey.findUnique({ where: { id }, select: { team_id: true } });
  if (!key) throw notFound('API key', id);
  return key.team_id;
}
