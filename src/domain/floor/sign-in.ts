import type { Db } from '../../db/types.js';
import { DomainError } from '../errors.js';
import { transaction } from '../../db/tx.js';
import { checkCredentials, teamAccess } from '../users/index.js';
import { issueTokens, revokeConnectionTokens, rotateRefreshToken, type TokenSet } from '../oauth/index.js';
import { presetPermissions } from '../oauth/index.js';
import { noteAuditTarget, setAuditActor } from '../audit/index.js';
import { findFulfillerTeamIds, insertConnection } from './store.js';

// Sign-in of the /floor page (issue 28, docs/floor.md "The /floor page"). A person signs in with
// the email and password of their user account (the accounts agent connections use) and gets an
// access token of a connection of their own, bound to the resource `<origin>/floor`: the same
// tokens, expiry, rotation, revocation and attribution as an agent connection's, listed with
// them, and bounded at every request by what the person holds now. Only such a token is
// accepted on the /v1 API (src/server/auth.ts); an agent's (resource /mcp) still is not.

export const FLOOR_CLIENT_ID = 'fos-floor';
export const FLOOR_CLIENT_NAME = 'fos floor page';
/** The floor page works orders, fulfillment and inventory, and reads the rest: the agents' "Read and operate". */
const FLOOR_PRESET = 'READ_AND_OPERATE';
/** 120 requests a minute (an agent's default, tier 1, is 30): a fast picker scans every second or two. */
const FLOOR_RATE_TIER = 2;

export const floorResource = (origin: string) => `${origin}/floor`;

export interface FloorSignInInput {
  email: string;
  password: string;
  teamId?: string;
  /** Where the tokens are valid: floorResource(origin of the request). */
  resource: string;
  /** The device or browser, shown on the connections page (e.g. its user agent). */
  device?: string;
}

export interface FloorSession extends TokenSet {
  user: { id: string; email: string; name: string };
  team: { id: string; name: string };
}

/** null: wrong email or password (or a disabled account), answered alike. */
export async function floorSignIn(db: Db, input: FloorSignInInput): Promise<FloorSession | null> {
  const user = await checkCredentials(db, input.email, input.password);
  if (!user) return null;
  const access = teamAccess(user);
  const fulfillers = new Set(
    (
      await findFulfillerTeamIds(
        db.prisma,
        access.map((a) => a.teamId),
      )
    ).map((t) => t.id),
  );
  const teams = access.filter((a) => fulfillers.has(a.teamId) && a.permissions.has('READ_FULFILLMENTS'));
  if (!teams.length) throw new DomainError('forbidden', 'This account may not read fulfillments in any fulfiller team.');
  const team = input.teamId ? teams.find((t) => t.teamId === input.teamId) : teams.length === 1 ? teams[0] : undefined;
  if (!team) {
    throw new DomainError('conflict', 'Choose the team to work for (team_id).', {
      teams: teams.map((t) => ({ team_id: t.teamId, team_name: t.teamName })),
    });
  }
  // The audit record's actor: the person signing in (no key authenticated this request).
  setAuditActor({ type: 'USER', id: user.id, name: user.display_name, userId: user.id, teamId: team.teamId });
  const tokens = await transaction(db, async (tx) => {
    const connection = await insertConnection(tx, {
      team_id: team.teamId,
      user_id: user.id,
      client_id: FLOOR_CLIENT_ID,
      client_name: FLOOR_CLIENT_NAME,
      name: `Floor: ${(input.device ?? 'browser').slice(0, 80)}`,
      preset: FLOOR_PRESET,
      permissions: presetPermissions(FLOOR_PRESET),
      rate_tier: FLOOR_RATE_TIER,
    });
    noteAuditTarget({ type: 'mcp_connection', id: connection.id, key: connection.name });
    return issueTokens(tx, connection.id, input.resource);
  });
  return {
    ...tokens,
    user: { id: user.id, email: user.email, name: user.display_name },
    team: { id: team.teamId, name: team.teamName },
  };
}

/** A new token pair for a floor sign-in's refresh token (used once), or null. */
export const floorRefresh = (db: Db, refreshToken: string, resource: string) =>
  rotateRefreshToken(db, FLOOR_CLIENT_ID, refreshToken, resource);

/** Signing out ends the sign-in: every token of its connection stops working at once. */
export async function floorSignOut(db: Db, connectionId: string) {
  await transaction(db, (tx) => revokeConnectionTokens(tx, connectionId));
}
