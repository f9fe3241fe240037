import type { Db } from '../../db/types.js';
import { TIER_LIMITS } from '../../contract/enums.js';
export { TIER_LIMITS };

// Fixed 60-second windows aligned to the clock, so every replica agrees on a window's bounds.
export const WINDOW_MS = 60_000;

export interface Hit {
  count: number;
  resetAt: number; // epoch ms
}

export interface RateLimitStore {
  readonly name: string;
  /** Counts one request of `keyId` in the window of `now`; a count over `limit` is a refusal. */
  hit(keyId: string, now: number, limit: number): Promise<Hit>;
  close(): Promise<void>;
}

const windowOf = (now: number) => {
  const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return { start, resetAt: start + WINDOW_MS };
};

/**
 * Refusals answered from memory, in front of any store. A key's count only grows within its
 * window, so once this process has seen a key over its limit, the rest of its requests in that
 * window are refused without asking the store: a flood of 429s costs no database write (nor Redis
 * round trip) per request. A higher limit (the key's tier raised) asks the store again.
 */
export class RefusingStore implements RateLimitStore {
  private refused = new Map<string, { start: number; count: number }>();

  constructor(private readonly store: RateLimitStore) {}

  get name() {
    return this.store.name;
  }

  async hit(keyId: string, now: number, limit: number): Promise<Hit> {
    const { start, resetAt } = windowOf(now);
    const known = this.refused.get(keyId);
    if (known && known.start === start && known.count > limit) return { count: known.count, resetAt };
    const hit = await this.store.hit(keyId, now, limit);
    if (hit.count > limit) {
      if (this.refused.size >= 10_000) this.refused.clear();
      this.refused.set(keyId, { start, count: hit.count });
    }
    return hit;
  }

  close() {
    return this.store.close();
  }
}

/** One process: counters in memory, no I/O on the hot path. */
export class MemoryStore implements RateLimitStore {
  readonly name = 'memory';
  private counters = new Map<string, { start: number; count: number }>();

  async hit(keyId: string, now: number): Promise<Hit> {
    const { start, resetAt } = windowOf(now);
    let c = this.counters.get(keyId);
    if (!c || c.start !== start) {
      if (this.counters.size > 50_000) this.counters.clear();
      c = { start, count: 0 };
      this.counters.set(keyId, c);
    }
    c.count += 1;
    return { count: c.count, resetAt };
  }

  async close() {}
}

/**
 * Processes sharing a database (PostgreSQL replicas, or several servers on one SQLite file): one
 * atomic upsert per request (INSERT … ON CONFLICT … RETURNING, on both), shared by all of them.
 * The counter stops at the limit: a request over it changes no row (the upsert's WHERE fails and
 * returns nothing), and RefusingStore answers the key's later requests in the window from memory.
 */
const UPSERT_PG = `INSERT INTO rate_limit_counters (bucket, count, window_reset) VALUES ($1, 1, $2)
  ON CONFLICT (bucket) DO UPDATE SET count = rate_limit_counters.count + 1 WHERE rate_limit_counters.count < $3
  RETURNING count`;

export class DatabaseStore implements RateLimitStore {
  readonly name = 'database';
  private lastSweep = 0;

  constructor(private readonly db: Db) {}

  async hit(keyId: string, now: number, limit: number): Promise<Hit> {
    const { start, resetAt } = windowOf(now);
    const bucket = `${keyId}:${start / 1000}`;
    // PostgreSQL on the raw driver (a statement through Prisma's client cost more CPU than the
    // request's own work in the floor bench, issue 36); the same statement through Prisma on SQLite.
    const rows = this.db.pgQuery
      ? await this.db.pgQuery<{ count: number }>(UPSERT_PG, [bucket, new Date(resetAt), limit])
      : await this.db.prisma.$queryRaw<{ count: number }[]>`
      INSERT INTO rate_limit_counters (bucket, count, window_reset)
      VALUES (${bucket}, 1, ${new Date(resetAt)})
      ON CONFLICT (bucket) DO UPDATE SET count = rate_limit_counters.count + 1 WHERE rate_limit_counters.count < ${limit}
      RETURNING count`;
    if (now - this.lastSweep > WINDOW_MS) {
      this.lastSweep = now;
      // Old windows are never read again; sweep them off the hot path's critical section.
      void this.db.prisma.rateLimitCounter.deleteMany({ where: { window_reset: { lt: new Date(start) } } }).catch(() => undefined);
    }
    return { count: rows.length ? Number(rows[0].count) : limit + 1, resetAt };
  }

  async close() {}
}

/** The PostgreSQL replicas' name for it. */
export const PostgresStore = DatabaseStore;

/** Replicas sharing Redis (--redis): INCR plus expiry in one round trip. */
export class RedisStore implements RateLimitStore {
  readonly name = 'redis';

  private constructor(
    private readonly redis: import('ioredis').Redis,
    private readonly prefix: string,
  ) {}

  /** `prefix` namespaces the counters, e.g. for several fos deployments sharing one Redis. */
  static async connect(url: string, { prefix = 'fos:rl:' }: { prefix?: string } = {}): Promise<RedisStore> {
    const { Redis } = await import('ioredis');
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    await redis.connect();
    return new RedisStore(redis, prefix);
  }

  async hit(keyId: string, now: number): Promise<Hit> {
    const { start, resetAt } = windowOf(now);
    const bucket = `${this.prefix}${keyId}:${start / 1000}`;
    const result = await this.redis
      .multi()
      .incr(bucket)
      .pexpireat(bucket, resetAt + 1000)
      .exec();
    const count = Number(result?.[0]?.[1] ?? 1);
    return { count, resetAt };
  }

  async close() {
    await this.redis.quit();
  }
}
