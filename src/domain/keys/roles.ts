import type { Db } from '../../db/types.js';
import { isUniqueViolation } from '../../db/client.js';
import { conflict, invalid, notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { isPermission, PERMISSIONS, type Permission } from '../../contract/permissions.js';
import { assertCanControl, assertCanGrant, type Actor } from './keys.js';
import type { TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { noteAuditBefore } from '../audit/index.js';
import * as store from './store.js';

export interface RoleInput {
  name: string;
  description?: string;
  permissions: Permission[];
}

type RoleRow = { id: string; team_id: string; name: string; description: string; permissions: unknown; created_at: Date; updated_at: Date };

export const presentRole = (r: RoleRow) => ({
  id: r.id,
  team_id: r.team_id,
  name: r.name,
  description: r.description,
  permissions: [...new Set(r.permissions as string[])].sort(),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const duplicateName = (name: string) => conflict(`A role named "${name}" already exists in this team.`);

/** Known permission names, deduplicated (the route schema checks them too; operators' input may not). */
function permissionsOf(values: string[], actor?: Actor): Permission[] {
  const unknown = values.filter((v) => !isPermission(v));
  if (unknown.length) {
    throw invalid('body.permissions', `unknown permission ${unknown.join(', ')}; allowed: ${PERMISSIONS.join(', ')}`);
  }
  assertCanGrant(actor, values);
  return [...new Set(values as Permission[])];
}

/** A MEMBER actor may only create roles carrying permissions it holds. */
export async function createRole(db: Db, teamId: string, input: RoleInput, actor?: Actor) {
  const permissions = permissionsOf(input.permissions, actor);
  try {
    const role = await store.insertRole(db.prisma, {
      team_id: teamId,
      name: input.name,
      description: input.description ?? '',
      permissions,
    });
    return presentRole(role);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateName(input.name);
    throw err;
  }
}

export async function listRoles(db: Db, teamId: string, page: PageRequest) {
  // Names are unique per team; id makes the order total for keyset paging all the same.
  const orderBy = [{ name: 'asc' }, { id: 'asc' }];
  const rows = await store.findRolePage(db.prisma, pageArgs(page, { team_id: teamId }, orderBy));
  const result = toPage(rows, page, undefined, orderBy);
  return { data: result.data.map(presentRole), meta: result.meta };
}

export async function getRole(db: Db, teamId: string, id: string) {
  const role = await store.findTeamRole(db.prisma, teamId, id);
  if (!role) throw notFound('Role', id);
  return presentRole(role);
}

/**
 * The role a change targets, checked against a MEMBER actor's own permissions. Returns its
 * updated_at: the change is a compare-and-set on it, so the role cannot gain permissions between
 * the check and the write.
 */
async function targetRole(tx: TxClient, teamId: string, id: string, actor?: Actor) {
  const role = await store.findRoleForChange(tx, teamId, id);
  if (!role) throw notFound('Role', id);
  noteAuditBefore(role, { key: role.name }); // the audit record's "from" (docs/audit.md)
  assertCanControl(actor, 'role', role.permissions as string[]);
  return role.updated_at;
}

const changedMeanwhile = () => conflict('The role changed while this request ran; retry.');

export async function updateRole(db: Db, teamId: string, id: string, input: Partial<RoleInput>, actor?: Actor) {
  const permissions = input.permissions ? permissionsOf(input.permissions, actor) : undefined;
  try {
    await transaction(db, async (tx) => {
      const seen = await targetRole(tx, teamId, id, actor);
      const { count } = await store.updateRoleIfUnchanged(tx, teamId, id, seen, {
        name: input.name,
        description: input.description,
        permissions,
      });
      if (count === 0) throw changedMeanwhile();
    });
    return await getRole(db, teamId, id);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateName(input.name ?? '');
    throw err;
  }
}

export async function deleteRole(db: Db, teamId: string, id: string, actor?: Actor) {
  await transaction(db, async (tx) => {
    const seen = await targetRole(tx, teamId, id, actor);
    const { count } = await store.deleteRoleIfUnchanged(tx, teamId, id, seen);
    if (count === 0) throw changedMeanwhile();
  });
}

/** Admin CLI: roles by name within a team (creating missing ones is the caller's choice). */
export async function rolesByName(db: Db, teamId: string, names: string[]) {
  const roles = await store.findTeamRolesNamed(db.prisma, teamId, names);
  const missing = names.filter((n) => !roles.some((r) => r.name === n));
  if (missing.length) throw notFound('Role', missing.join(', '));
  return roles.map((r) => r.id);
}
