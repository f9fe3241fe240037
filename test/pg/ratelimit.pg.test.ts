import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { createKey } from '../../src/domain/keys/keys.js';
import { buildApp } from '../../src/server/app.js';
import { PostgresStore, RedisStore, WINDOW_MS, type RateLimitStore } from '../../src/server/rate-limit/stores.js';
import { freshPostgresUrl } from '../helpers/db.js';

// Two replicas (separate apps, separate database connections) share one key's tier-1 budget
// of 30 requests per 60 s through PostgreSQL or Redis: never 30 per replica.

const REDIS_URL = process.env.FOS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let url: string;
let drop: () => Promise<void>;
let admin: Db;
let teamId: string;
beforeAll(async () => {
  const fresh = await freshPostgresUrl();
  url = fresh.url;
  drop = fresh.drop;
  await migrate(url);
  admin = await createDb(url);
  teamId = (await bootstrapIfEmpty(admin))!.teamId;
});
afterAll(async () => {
  await admin?.close();
  await drop?.();
});

// Every replica reads one fixed clock, inside the next window (so Redis's expiry of the counters,
// set from that window's end, is still ahead): no burst can straddle a window boundary.
const fixedNow = (Math.floor(Date.now() / WINDOW_MS) + 1) * WINDOW_MS + 1_000;
const clock = () => fixedNow;

/** Two replicas, each with its own connection and its own store instance. */
async function replicas(store: (db: Db) => Promise<RateLimitStore>) {
  const dbs = [await createDb(url), await createDb(url)];
  const apps: FastifyInstance[] = [];
  for (const db of dbs) {
    const app = await buildApp({ db, config: { logger: false, rateLimitStore: await store(db), clock } });
    await app.ready();
    apps.push(app);
  }
  return {
    apps,
    close: async () => {
      for (const app of apps) await app.close();
      for (const db of dbs) await db.close();
    },
  };
}

async function expectSharedBudget(apps: FastifyInstance[]) {
  const { token } = await createKey(admin, teamId, { name: `burst ${randomBytes(3).toString('hex')}`, power_role: 'ADMIN' }, null);
  const get = (i: number) => apps[i % 2].inject({ method: 'GET', url: '/v1/me', headers: { 'x-access-token': token } });
  // 30 requests at once, spread over both replicas: each is counted exactly once.
  const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => get(i)));
  expect(burst.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
  const remaining = burst.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => i));
  for (const r of burst) expect(r.headers['x-ratelimit-limit']).toBe('30');

  for (const i of [0, 1]) {
    const over = await get(i);
    expect(over.statusCode).toBe(429);
    expect(over.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(over.json()).toMatchObject({ type: 'urn:fos:error:rate-limited', status: 429 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
  }
  return token;
}

describe('rate limits shared across replicas', () => {
  it('PostgreSQL store: 30 requests over two replicas, then 429 on both', async () => {
    const { apps, close } = await replicas(async (db) => new PostgresStore(db));
    try {
      await expectSharedBudget(apps);
      const rows = await admin.prisma.rateLimitCounter.findMany();
      // The two refused requests changed nothing: the counter stops at the limit (issue 9).
      expect(rows.some((r) => r.count === 30)).toBe(true);
      expect(rows.some((r) => r.count > 30)).toBe(false);
    } finally {
      await close();
    }
  });

  it('Redis store: 30 requests over two replicas, then 429 on both', async () => {
    const prefix = `fos-test:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(REDIS_URL);
    const { apps, close } = await replicas(() => RedisStore.connect(REDIS_URL, { prefix }));
    const dbCounters = await admin.prisma.rateLimitCounter.count();
    try {
      await expectSharedBudget(apps);
      const keys = await redis.keys(`${prefix}*`);
      expect(keys).toHaveLength(1);
      expect(await redis.get(keys[0])).toBe('32');
      expect(await redis.pttl(keys[0])).toBeGreaterThan(0);
      expect(await admin.prisma.rateLimitCounter.count()).toBe(dbCounters); // nothing counted in the database
    } finally {
      await close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });
});
