import type { Db } from '../../db/types.js';
import { DomainError } from '../errors.js';
import { effectivePermissions, type Permission } from '../../contract/permissions.js';
import { hashToken, isWellFormedToken } from './token.js';
import { findKeyByHash } from './store.js';

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

/**
 * Agent connections' access tokens, resolved by the oauth area (which sits above keys): the
 * server passes them in, so keys never imports oauth (test/unit/layers.test.ts: no loops).
 */
export interface AccessTokens {
  isAccessToken(token: string): boolean;
  principal(db: Db, token: string): Promise<Principal | null>;
}

const NO_ACCESS_TOKENS: AccessTokens = { isAccessToken: () => false, principal: async () => null };

interface Entry {
  principal: Principal | null;
  loadedAt: number;
}

/** Most tokens (good and bad) remembered; the oldest is forgotten first, so a flood cannot grow the process. */
export const MAX_CACHED_TOKENS = 10_000;
/** How long an unknown token is remembered as unknown: short, so a key just created elsewhere works soon. */
const NEGATIVE_TTL_MS = 5_000;

const unauthorized = (why: string) => new DomainError('unauthorized', why);

// Tokens resolve through an in-memory cache (by hash, good and bad alike, bounded) so the hot
// path costs no query. Changes made through this process invalidate it at once; other replicas
// see them within ttlMs.
export class PrincipalResolver {
  private cache = new Map<string, Entry>();
  // The last token's hash (null: malformed): the auth hook asks mayBeValid and then resolve of
  // the same token, and a SHA-256 plus a checksum each time was ~1% of a list page's CPU.
  private lastToken = '';
  private lastHash: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 5_000,
    private readonly now: () => number = Date.now,
    private readonly accessTokens: AccessTokens = NO_ACCESS_TOKENS,
  ) {}

  async resolve(token: string | undefined): Promise<Principal> {
    if (!token) throw unauthorized('Send the API key in the x-access-token header.');
    // Agent connections' tokens are read each time, never cached: revoking one works at once everywhere.
    if (this.accessTokens.isAccessToken(token)) {
      const p = await this.accessTokens.principal(this.db, token);
      if (!p) throw unauthorized('The access token is unknown, expired or revoked; refresh it or connect again.');
      return p;
    }
    const hash = this.hashOf(token);
    if (hash === null) throw unauthorized('The API key is malformed.');
    let entry = this.fresh(hash);
    if (!entry) {
      entry = { principal: await this.load(hash), loadedAt: this.now() };
      this.remember(hash, entry);
    }
    const p = entry.principal;
    if (!p) throw unauthorized('The API key is unknown or disabled.');
    if (p.expiresAt && p.expiresAt.getTime() <= this.now()) throw unauthorized('The API key has expired.');
    return p;
  }

  /**
   * Whether `token` could still turn out valid without being looked up: false for a missing or
   * malformed token and for one this process recently found unknown (a cache read, no I/O). The
   * limiter of failed authentications refuses only those, so a valid key is never refused by it.
   */
  mayBeValid(token: string | undefined): boolean {
    if (!token) return false;
    if (this.accessTokens.isAccessToken(token)) return true;
    const hash = this.hashOf(token);
    if (hash === null) return false;
    const entry = this.fresh(hash);
    return !entry || entry.principal !== null;
  }

  /** Tokens remembered now (for tests and metrics). */
  get size(): number {
    return this.cache.size;
  }

  private hashOf(token: string): string | null {
    if (token !== this.lastToken) {
      this.lastHash = isWellFormedToken(token) ? hashToken(token) : null;
      this.lastToken = token;
    }
    return this.lastHash;
  }

  private fresh(hash: string): Entry | undefined {
    const entry = this.cache.get(hash);
    if (!entry) return undefined;
    const ttl = entry.principal ? this.ttlMs : Math.min(this.ttlMs, NEGATIVE_TTL_MS);
    return this.now() - entry.loadedAt <= ttl ? entry : undefined;
  }

  private remember(hash: string, entry: Entry) {
    this.cache.delete(hash); // re-inserted last: Map order is then oldest first
    if (this.cache.size >= MAX_CACHED_TOKENS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, entry);
  }

  /** Forget everything: called after any key, role or team change. */
  invalidate() {
    this.cache.clear();
  }

  private async load(tokenHash: string): Promise<Principal | null> {
    const key = await findKeyByHash(this.db.prisma, tokenHash);
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
