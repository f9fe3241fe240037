import type { Db, TxClient } from '../../db/types.js';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { effectivePermissions, type Permission } from '../../contract/permissions.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import type { Principal } from './principal.js';
import { generateToken, hashToken, tokenHint } from './token.js';
import { transaction } from '../../db/tx.js';
import * as store from './store.js';

export interface CreateKeyInput {
  name: string;
  description?: string;
  power_role?: 'ADMIN' | 'MEMBER';
  role_ids?: string[];
  rate_tier?: number;
  expires_at?: string | null;
}

/**
 * The key making a change through the API. Operators (`fos admin`, bootstrap, tests) pass a
 * plain label instead and are not restricted. A MEMBER actor may never grant more than it
 * holds: no ADMIN keys, no tier above 1, no role carrying a permission it lacks, and no change
 * to an ADMIN key.
 */
export type Actor = Pick<Principal, 'keyId' | 'powerRole' | 'permissions'>;

type Client = Db['prisma'] | TxClient;

/** The credential record as shown after creation: never the token, never its hash. */
export function presentKey(key: store.KeyRow) {
  const roles = key.roles.map((r) => ({ id: r.role.id, name: r.role.name })).sort((a, b) => a.name.localeCompare(b.name));
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
    permissions: [
      ...effectivePermissions(
        key.power_role,
        key.roles.map((r) => r.role.permissions),
      ),
    ].sort(),
    expires_at: key.expires_at,
    created_by: key.created_by,
    disabled_at: key.disabled_at,
    created_at: key.created_at,
    updated_at: key.updated_at,
  };
}

const isMember = (actor?: Actor | string | null): actor is Actor =>
  typeof actor === 'object' && actor !== null && actor.powerRole === 'MEMBER';

/** A MEMBER actor may only grant permissions it holds itself. */
export function assertCanGrant(actor: Actor | string | null | undefined, permissions: Iterable<string>) {
  if (!isMember(actor)) return;
  const missing = [...new Set(permissions)].filter((p) => !actor.permissions.has(p as Permission)).sort();
  if (missing.length) throw forbidden(`A MEMBER key cannot grant permissions it does not hold: ${missing.join(', ')}.`);
}

/**
 * A MEMBER actor may only change or remove a key or role whose permissions it holds all of
 * (otherwise a MANAGE_API_KEYS member could strip or re-tier keys more powerful than itself).
 */
export function assertCanControl(actor: Actor | string | null | undefined, what: string, permissions: Iterable<string>) {
  if (!isMember(actor)) return;
  const missing = [...new Set(permissions)].filter((p) => !actor.permissions.has(p as Permission)).sort();
  if (missing.length) {
    throw forbidden(`A MEMBER key cannot change or remove a ${what} whose permissions exceed its own (it lacks ${missing.join(', ')}).`);
  }
}

/** A MEMBER actor may not make ADMIN keys nor set a rate tier above 1 (keys and agent connections alike). */
export function assertMemberLimits(actor: Actor | string | null | undefined, target: { power_role?: string; rate_tier?: number }) {
  if (!isMember(actor)) return;
  if (target.power_role === 'ADMIN') throw forbidden('Only an ADMIN key can create or change ADMIN keys.');
  if ((target.rate_tier ?? 1) > 1) throw forbidden('Only an ADMIN key can set a rate tier above 1.');
}

/** The team's roles with these ids (deduplicated); an id of no role of this team -> 404. */
async function rolesOfTeam(tx: TxClient, teamId: string, roleIds: string[]) {
  const unique = [...new Set(roleIds)];
  if (!unique.length) return [];
  const roles = await store.findTeamRolesIn(tx, teamId, unique);
  const missing = unique.filter((id) => !roles.some((r) => r.id === id));
  if (missing.length) throw notFound(missing.length > 1 ? 'Roles' : 'Role', missing.join(', '));
  return roles;
}

/** A role deleted between our check and our insert: a foreign-key violation (P2003), answered as 404. */
function roleDeletedMeanwhile(err: unknown): never {
  if ((err as { code?: unknown }).code === 'P2003') throw notFound('Role', 'named in role_ids');
  throw err;
}

const grantedBy = (roles: { permissions: unknown }[]) =>
  effectivePermissions(
    'MEMBER',
    roles.map((r) => r.permissions),
  );

export async function createKey(db: Db, teamId: string, input: CreateKeyInput, by: Actor | string | null) {
  assertMemberLimits(by, input);
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalid('body.expires_at', 'must be in the future');
  const token = generateToken();
  const key = await transaction(db, async (tx) => {
    const roles = await rolesOfTeam(tx, teamId, input.role_ids ?? []);
    assertCanGrant(by, grantedBy(roles));
    return store.insertKey(
      tx,
      {
        team_id: teamId,
        name: input.name,
        description: input.description ?? '',
        power_role: input.power_role ?? 'MEMBER',
        token_hash: hashToken(token),
        token_hint: tokenHint(token),
        rate_tier: input.rate_tier ?? 1,
        expires_at: expiresAt,
        created_by: typeof by === 'string' || by === null ? by : by.keyId,
      },
      roles.map((r) => r.id),
    );
  }).catch(roleDeletedMeanwhile);
  return { ...presentKey(key), token };
}

export async function listKeys(db: Db, teamId: string, page: PageRequest) {
  const orderBy = [{ created_at: 'asc' }, { id: 'asc' }];
  const rows = await store.findKeyPage(db.prisma, pageArgs(page, { team_id: teamId }, orderBy));
  const result = toPage(rows, page, undefined, orderBy);
  return { data: result.data.map(presentKey), meta: result.meta };
}

export async function getKey(db: Db, teamId: string, id: string) {
  const key = await store.findTeamKey(db.prisma, teamId, id);
  if (!key) throw notFound('API key', id);
  return presentKey(key);
}

/** Loads the key a change targets: 404 outside the team, 403 for a MEMBER touching an ADMIN key or a key holding more than it. */
async function targetKey(client: Client, teamId: string, id: string, actor?: Actor) {
  const key = await store.findTeamKey(client, teamId, id);
  if (!key) throw notFound('API key', id);
  if (key.power_role === 'ADMIN') assertMemberLimits(actor, { power_role: 'ADMIN' });
  assertCanControl(actor, 'key', grantedBy(key.roles.map((r) => r.role)));
  return key;
}

/** Idempotent: disabling a disabled key returns it unchanged. A key may disable itself (revoking a leaked token). */
export async function disableKey(db: Db, teamId: string, id: string, actor?: Actor) {
  await targetKey(db.prisma, teamId, id, actor);
  await store.disableActiveKey(db.prisma, teamId, id, new Date());
  return getKey(db, teamId, id);
}

export async function deleteKey(db: Db, teamId: string, id: string, actor?: Actor) {
  if (actor && id === actor.keyId) throw conflict('A key cannot delete itself; delete it with another key (or disable it).');
  await targetKey(db.prisma, teamId, id, actor);
  const { count } = await store.deleteTeamKey(db.prisma, teamId, id);
  if (count === 0) throw notFound('API key', id);
}

export async function setKeyRoles(db: Db, teamId: string, id: string, roleIds: string[], actor?: Actor) {
  await transaction(db, async (tx) => {
    await targetKey(tx, teamId, id, actor);
    // Write the key row first: its row lock makes concurrent replacements of one key's roles run
    // one after the other (PostgreSQL), so neither re-inserts a link the other just wrote.
    await store.touchKey(tx, id, new Date());
    const roles = await rolesOfTeam(tx, teamId, roleIds);
    assertCanGrant(actor, grantedBy(roles));
    await store.replaceKeyRoles(
      tx,
      id,
      roles.map((r) => r.id),
    );
  }).catch(roleDeletedMeanwhile);
  return getKey(db, teamId, id);
}

export async function setKeyTier(db: Db, teamId: string, id: string, tier: number, actor?: Actor) {
  if (!Number.isInteger(tier) || tier < 1 || tier > 4) throw invalid('body.tier', 'must be an integer from 1 to 4');
  assertMemberLimits(actor, { rate_tier: tier });
  await targetKey(db.prisma, teamId, id, actor);
  const { count } = await store.updateKeyTier(db.prisma, teamId, id, tier);
  if (count === 0) throw notFound('API key', id);
  return getKey(db, teamId, id);
}

/** Admin CLI: find a key by id across teams. */
export async function findKeyTeam(db: Db, id: string): Promise<string> {
  const key = await store.findKeyTeamId(db.prisma, id);
  if (!key) throw notFound('API key', id);
  return key.team_id;
}
