import type { Db } from '../../db/types.js';
import { DomainError } from '../errors.js';
import { effectivePermissions, type Permission } from '../permissions.js';
import { accessTokenPrincipal, isAccessToken } from '../oauth/tokens.js';
import { hashToken, isWellFormedToken } from './token.js';

/** An agent connection (OAuth access token) rather than an API key. */
export interface ConnectionCaller {
  id: string;
  userId: string;
  userName: string;
  resource: string | null;
}

/** Who is calling: resolved from a token once, then reused from memory. */
export interface Principal {
  /** The credential: an API key's id, or an agent connection's id (its own rate counter). */
  keyId: string;
  keyName: string;
  teamId: string;
  teamName: string;
  teamKind: 'FULFILLER' | 'MERCHANT';
  measurementSystem: 'METRIC' | 'IMPERIAL';
  powerRole: 'ADMIN' | 'MEMBER';
  permissions: Set<Permission>;
  tier: number;
  expiresAt: Date | null;
  /** Set when an agent connection calls: its person is recorded where the spec has a user field. */
  connection?: ConnectionCaller;
}

interface Entry {
  principal: Principal | null;
  loadedAt: number;
}

const unauthorized = (why: string) => new DomainError('unauthorized', why);

// Tokens resolve through an in-memory cache so the hot path costs no query. Changes made
// through this process invalidate it at once; other replicas see them within ttlMs.
export class PrincipalResolver {
  private cache = new Map<string, Entry>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 5_000,
  ) {}

  async resolve(token: string | undefined): Promise<Principal> {
    if (!token) throw unauthorized('Send the API key in the x-access-token header.');
    // Agent connections' tokens are read each time, never cached: revoking one works at once everywhere.
    if (isAccessToken(token)) {
      const p = await accessTokenPrincipal(this.db, token);
      if (!p) throw unauthorized('The access token is unknown, expired or revoked; refresh it or connect again.');
      return p;
    }
    if (!isWellFormedToken(token)) throw unauthorized('The API key is malformed.');
    const hash = hashToken(token);
    let entry = this.cache.get(hash);
    if (!entry || Date.now() - entry.loadedAt > this.ttlMs) {
      entry = { principal: await this.load(hash), loadedAt: Date.now() };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, entry);
    }
    const p = entry.principal;
    if (!p) throw unauthorized('The API key is unknown or disabled.');
    if (p.expiresAt && p.expiresAt.getTime() <= Date.now()) throw unauthorized('The API key has expired.');
    return p;
  }

  /** Whether `token` is a key this process already resolved as valid (a cache read, no I/O). */
  isCachedValid(token: string | undefined): boolean {
    if (!token || !isWellFormedToken(token)) return false;
    const entry = this.cache.get(hashToken(token));
    return Boolean(entry?.principal && Date.now() - entry.loadedAt <= this.ttlMs);
  }

  /** Forget everything: called after any key, role or team change. */
  invalidate() {
    this.cache.clear();
  }

  private async load(tokenHash: string): Promise<Principal | null> {
    const key = await this.db.prisma.apiKey.findUnique({
      where: { token_hash: tokenHash },
      include: { team: true, roles: { include: { role: { select: { permissions: true } } } } },
    });
    if (!key || key.state !== 'ACTIVE') return null;
    return {
      keyId: key.id,
      keyName: key.name,
      teamId: key.team_id,
      teamName: key.team.name,
      teamKind: key.team.kind,
      measurementSystem: key.team.measurement_system,
      powerRole: key.power_role,
      permissions: effectivePermissions(
        key.power_role,
        key.roles.map((r) => r.role.permissions),
      ),
      tier: key.rate_tier,
      expiresAt: key.expires_at,
    };
  }
}
