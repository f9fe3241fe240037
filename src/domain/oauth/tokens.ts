import { randomBytes } from 'node:crypto';
import type { Db, TxClient } from '../../db/types.js';
import { hashToken } from '../keys/index.js';
import type { Principal } from '../keys/index.js';
import { teamPermissions } from '../users/index.js';
import { grantable } from './presets.js';
import { transaction } from '../../db/tx.js';
import * as store from './store.js';

// OAuth tokens of agent connections. Secrets are random (256 bits), prefixed so a leaked one is
// recognisable, and stored only as SHA-256. Access tokens live an hour; a refresh token is used
// once and replaced (rotation); presenting a used one again revokes the whole connection.

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
const ACCESS_PREFIX = 'fosat_';
const REFRESH_PREFIX = 'fosrt_';
export const CODE_PREFIX = 'fosac_';

export const newSecret = (prefix: string) => prefix + randomBytes(32).toString('base64url');
const SECRET_LENGTH = newSecret(ACCESS_PREFIX).length;

export const isAccessToken = (token: string) => token.length === SECRET_LENGTH && token.startsWith(ACCESS_PREFIX);

export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type Client = Db['prisma'] | TxClient;

/** A fresh access and refresh token for a connection, written in the caller's transaction. */
export async function issueTokens(tx: Client, connectionId: string, resource: string | null, now = Date.now()): Promise<TokenSet> {
  const access = newSecret(ACCESS_PREFIX);
  const refresh = newSecret(REFRESH_PREFIX);
  await store.insertTokens(tx, [
    {
      connection_id: connectionId,
      kind: 'ACCESS',
      token_hash: hashToken(access),
      resource,
      expires_at: new Date(now + ACCESS_TOKEN_TTL_S * 1000),
    },
    {
      connection_id: connectionId,
      kind: 'REFRESH',
      token_hash: hashToken(refresh),
      resource,
      expires_at: new Date(now + REFRESH_TOKEN_TTL_S * 1000),
    },
  ]);
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope: 'mcp' };
}

/** Expired tokens are never read again: cleared (off the request's path) whenever tokens are issued. */
export function sweepExpiredTokens(db: Db) {
  void store.deleteTokensExpiredBefore(db.prisma, new Date(Date.now() - 24 * 3600 * 1000)).catch(() => undefined);
}

/** Revokes a connection and every token it has, at once (the next request on any replica fails). */
export async function revokeConnectionTokens(tx: Client, connectionId: string, now = new Date()) {
  await store.revokeConnectionAndTokens(tx, connectionId, now);
}

/**
 * Exchanges a refresh token (once: compare-and-set on used_at). Null when it is unknown, expired,
 * revoked, another client's, or bound to another resource; a second use revokes the connection.
 */
export async function rotateRefreshToken(db: Db, clientId: string, token: string, resource: string | null): Promise<TokenSet | null> {
  if (!token.startsWith(REFRESH_PREFIX) || token.length !== SECRET_LENGTH) return null;
  const hash = hashToken(token);
  sweepExpiredTokens(db);
  return transaction(db, async (tx) => {
    const row = await store.findTokenWithUser(tx, hash);
    if (!row || row.kind !== 'REFRESH' || row.connection.client_id !== clientId) return null;
    const now = new Date();
    const taken = await store.useToken(tx, row.id, now);
    if (taken.count !== 1) {
      // Replay of a rotated refresh token: someone else may hold it, so nothing of this connection stays valid.
      if (row.used_at) await revokeConnectionTokens(tx, row.connection_id, now);
      return null;
    }
    if (row.connection.state !== 'ACTIVE' || row.connection.user.state !== 'ACTIVE') return null;
    if (resource && row.resource && resource !== row.resource) return null;
    return issueTokens(tx, row.connection_id, row.resource, now.getTime());
  });
}

/** Revocation by the client (RFC 7009): either token disconnects its connection. Unknown tokens are ignored. */
export async function revokeByToken(db: Db, clientId: string, token: string) {
  const row = await store.findTokenWithConnection(db.prisma, hashToken(token));
  if (!row || row.connection.client_id !== clientId) return;
  await transaction(db, (tx) => revokeConnectionTokens(tx, row.connection_id));
}

const LAST_USED_EVERY_MS = 60_000;

/**
 * The principal an access token stands for, or null. Read on every request (no cache), so a
 * revoked connection, a disabled person or a lost permission takes effect at once on every replica.
 */
export async function accessTokenPrincipal(db: Db, token: string): Promise<Principal | null> {
  const row = await store.findTokenForPrincipal(db.prisma, hashToken(token));
  const now = Date.now();
  if (!row || row.kind !== 'ACCESS' || row.revoked_at || row.expires_at.getTime() <= now) return null;
  const c = row.connection;
  if (c.state !== 'ACTIVE' || c.user.state !== 'ACTIVE') return null;
  const held = teamPermissions(c.user, c.team_id);
  if (!c.last_used_at || now - c.last_used_at.getTime() > LAST_USED_EVERY_MS) {
    // At most one write a minute per connection, off the request's path.
    void store.touchConnectionUsed(db.prisma, c.id, new Date(now - LAST_USED_EVERY_MS), new Date(now)).catch(() => undefined);
  }
  return {
    keyId: c.id,
    keyName: c.name,
    teamId: c.team_id,
    teamName: c.team.name,
    teamKind: c.team.kind,
    measurementSystem: c.team.measurement_system,
    powerRole: 'MEMBER',
    permissions: new Set(grantable(c.permissions as string[], held)),
    tier: c.rate_tier,
    expiresAt: row.expires_at,
    connection: { id: c.id, userId: c.user_id, userName: c.user.display_name, resource: row.resource },
  };
}
