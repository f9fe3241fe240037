import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/types.js';
import { hashToken } from '../keys/index.js';
import { effectivePermissions, type Permission } from '../../contract/permissions.js';
import { burnPasswordCheck, verifyPassword } from './password.js';
import * as store from './store.js';

// Browser sessions for the sign-in, consent and settings pages. The cookie holds a random
// secret; only its SHA-256 is stored. Sessions never authenticate API or /mcp requests.

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const SESSION_PREFIX = 'fossn_';

export interface TeamAccess {
  teamId: string;
  teamName: string;
  permissions: Set<Permission>;
}

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  displayName: string;
  teams: TeamAccess[];
}

/** What teamAccess() needs of a user (the include other areas' reads of a person use). */
export { membershipsInclude } from './store.js';

type WithMemberships = {
  memberships: { team_id: string; power_role: 'ADMIN' | 'MEMBER'; team: { name: string }; roles: { role: { permissions: unknown } }[] }[];
};

/** A person's teams and what they hold in each (deduplicated union of roles, as for keys). */
export function teamAccess(user: WithMemberships): TeamAccess[] {
  return user.memberships.map((m) => ({
    teamId: m.team_id,
    teamName: m.team.name,
    permissions: effectivePermissions(
      m.power_role,
      m.roles.map((r) => r.role.permissions),
    ),
  }));
}

/** What a person holds in one team (empty when not a member). */
export const teamPermissions = (user: WithMemberships, teamId: string): Set<Permission> =>
  teamAccess(user).find((t) => t.teamId === teamId)?.permissions ?? new Set();

/** The active person with this email and password, or null (same answer and cost for unknown emails). */
export async function checkCredentials(db: Db, email: string, password: string) {
  const user = await store.findUserByEmail(db.prisma, email.trim().toLowerCase());
  if (!user) {
    await burnPasswordCheck(password);
    return null;
  }
  if (!(await verifyPassword(password, user.password_hash)) || user.state !== 'ACTIVE') return null;
  return user;
}

/** Checks the password; returns a new session's secret, or null (same answer and cost for unknown emails). */
export async function signIn(db: Db, email: string, password: string): Promise<string | null> {
  const user = await checkCredentials(db, email, password);
  if (!user) return null;
  const secret = SESSION_PREFIX + randomBytes(32).toString('base64url');
  const now = Date.now();
  await store.insertSession(db.prisma, { user_id: user.id, token_hash: hashToken(secret), expires_at: new Date(now + SESSION_TTL_MS) });
  // Expired sessions are never read again; clearing them here keeps the table small.
  void store.deleteSessionsExpiredBefore(db.prisma, new Date(now)).catch(() => undefined);
  return secret;
}

/** The signed-in person behind a cookie, or null (unknown, expired, or the person was disabled). */
export async function sessionUser(db: Db, secret: string | undefined): Promise<SessionUser | null> {
  if (!secret?.startsWith(SESSION_PREFIX) || secret.length > 100) return null;
  const session = await store.findSession(db.prisma, hashToken(secret));
  if (!session || session.expires_at.getTime() <= Date.now() || session.user.state !== 'ACTIVE') return null;
  const { user } = session;
  return { sessionId: session.id, userId: user.id, email: user.email, displayName: user.display_name, teams: teamAccess(user) };
}

export async function signOut(db: Db, secret: string | undefined) {
  if (!secret) return;
  await store.deleteSession(db.prisma, hashToken(secret));
}

/** What a person holds in one team now (empty when no longer a member or disabled). */
export async function currentAccess(db: Db, userId: string, teamId: string): Promise<Set<Permission>> {
  const user = await store.findUserAccess(db.prisma, userId);
  if (!user || user.state !== 'ACTIVE') return new Set();
  return teamPermissions(user, teamId);
}
