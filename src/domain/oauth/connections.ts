import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { assertMemberLimits, type Actor } from '../keys/index.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { teamPermissions } from '../users/index.js';
import { grantable } from './presets.js';
import { revokeConnectionTokens } from './tokens.js';
import { transaction } from '../../db/tx.js';
import * as store from './store.js';

// Agent connections of a team (spec 5.3: "MCP Connections" under team settings): listed with
// client, person, permissions, status and recent use; disconnecting revokes every token of the
// connection and touches neither the person nor any API key.

export function presentConnection(c: store.ConnectionRow) {
  const held = teamPermissions(c.user, c.team_id);
  return {
    id: c.id,
    name: c.name,
    client_id: c.client_id,
    client_name: c.client_name,
    team_id: c.team_id,
    team_name: c.team.name,
    user_id: c.user.id,
    user_email: c.user.email,
    user_name: c.user.display_name,
    preset: c.preset,
    granted_permissions: (c.permissions as string[]).slice().sort(),
    // What it can do now: its grant, bounded by what the person holds today.
    permissions: c.state === 'ACTIVE' && c.user.state === 'ACTIVE' ? grantable(c.permissions as string[], held).sort() : [],
    rate_tier: c.rate_tier,
    status: c.state === 'ACTIVE' && c.user.state !== 'ACTIVE' ? 'USER_DISABLED' : c.state,
    created_at: c.created_at,
    last_used_at: c.last_used_at,
    revoked_at: c.revoked_at,
  };
}

export interface ConnectionListQuery extends PageRequest {
  status?: 'ACTIVE' | 'REVOKED';
  user_id?: string;
}

export async function listConnections(db: Db, teamId: string, q: ConnectionListQuery) {
  const orderBy = [{ created_at: 'desc' }, { id: 'desc' }];
  const where = { team_id: teamId, ...(q.status ? { state: q.status } : {}), ...(q.user_id ? { user_id: q.user_id } : {}) };
  const rows = await store.findConnectionPage(db.prisma, pageArgs(q, where, orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  return { data: page.data.map(presentConnection), meta: page.meta };
}

export async function getConnection(db: Db, teamId: string, id: string) {
  const row = await store.findTeamConnection(db.prisma, teamId, id);
  if (!row) throw notFound('MCP connection', id);
  return presentConnection(row);
}

/** Idempotent: a revoked connection stays revoked. */
export async function revokeConnection(db: Db, teamId: string, id: string) {
  const row = await store.teamConnectionExists(db.prisma, teamId, id);
  if (!row) throw notFound('MCP connection', id);
  await transaction(db, (tx) => revokeConnectionTokens(tx, id));
  return getConnection(db, teamId, id);
}

/** The connections a signed-in person may see on the settings page: those of teams where they hold WRITE_MCP. */
export async function connectionsForPerson(db: Db, teamIds: string[]) {
  if (!teamIds.length) return [];
  const rows = await store.findConnectionsOfTeams(db.prisma, teamIds);
  return rows.map(presentConnection);
}

/** Tier of a connection's own counter (spec 8: default 1, higher assignable as for keys: above 1 by ADMIN keys only). */
export async function setConnectionTier(db: Db, teamId: string, id: string, tier: number, caller: Actor) {
  assertMemberLimits(caller, { rate_tier: tier });
  const updated = await store.updateConnectionTier(db.prisma, teamId, id, tier);
  if (!updated.count) throw notFound('MCP connection', id);
  return getConnection(db, teamId, id);
}
