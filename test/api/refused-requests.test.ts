import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp, type TestApp } from '../helpers/app.js';
import { recordSqliteStatements } from '../helpers/statements.js';
import { buildApp } from '../../src/server/app.js';
import { DatabaseStore, WINDOW_MS } from '../../src/server/rate-limit/stores.js';

// Issue 9 target 4: a flood of refused requests stays cheap. Requests over their key's rate limit
// (429) and requests with a missing or invalid key (401, then 429 per address) write nothing to
// the database, whichever rate-limit store counts, the database one included. Every SQL statement
// is recorded at the driver (each execution on SQLite, pg's Client#query on PostgreSQL).

const statements: string[] = [];
let restore: (() => void) | undefined;

function recordStatements() {
  statements.length = 0;
  if ((process.env.FOS_TEST_DB ?? 'sqlite') === 'sqlite') {
    restore = recordSqliteStatements(statements);
  } else {
    const proto = pg.Client.prototype as unknown as { query(...args: unknown[]): unknown };
    const { query } = proto;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as string | { text: string };
      statements.push(typeof q === 'string' ? q : q.text);
      return query.apply(this, args);
    };
    restore = () => {
      proto.query = query;
    };
  }
}
afterEach(() => {
  restore?.();
  restore = undefined;
});

/** Statements that may change the database (anything but a plain read). */
const writes = () => statements.filter((sql) => !/^\s*SELECT\b/i.test(sql));

// The apps' clock stands still a second into the current window: a burst cannot straddle a
// window boundary however slow the machine, and no test waits for a fresh window.
const at = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + 1_000;
const clock = () => at;

const badToken = () => `fos_${randomBytes(16).toString('hex')}_abcdef`;

describe("requests over a key's rate limit (database store)", () => {
  let t: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await testApp({ clock });
    // A second app on the same database whose limits are counted in it (as replicas, or several
    // servers on one SQLite file, count them).
    app = await buildApp({ db: t.db, config: { logger: false, unauthRateLimit: 0, rateLimitStore: new DatabaseStore(t.db), clock } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('write nothing: the counter stops at the limit and later refusals are answered from memory', async () => {
    const { token, id } = await t.key({ tier: 1 });
    const get = () => app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-access-token': token } });
    for (let i = 0; i < 30; i++) expect((await get()).statusCode).toBe(200);

    recordStatements();
    const refused = await get(); // the first refusal asks the store once: an upsert whose WHERE fails, changing no row
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.json()).toMatchObject({ type: 'urn:fos:error:rate-limited', status: 429 });
    expect(statements.length).toBeLessThanOrEqual(1);
    statements.length = 0;
    for (let i = 0; i < 50; i++) expect((await get()).statusCode).toBe(429);
    expect(statements).toEqual([]); // the flood: no statement at all
    restore!();

    const counters = await t.db.prisma.rateLimitCounter.findMany({ where: { bucket: { startsWith: `${id}:` } } });
    expect(counters.map((c) => c.count)).toEqual([30]);
  });
});

describe('requests without a valid key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ unauthRateLimit: 5, clock });
  });
  afterAll(() => t?.close());

  it('write nothing, and once the address is over its limit, read nothing either', async () => {
    recordStatements();
    const get = (token: string | null) => t.call('GET', '/v1/ops/products', { token });
    for (let i = 0; i < 5; i++) expect((await get(i % 2 ? null : badToken())).statusCode).toBe(401);
    expect(writes()).toEqual([]);
    statements.length = 0;
    for (let i = 0; i < 50; i++) expect((await get(i % 2 ? null : badToken())).statusCode).toBe(429);
    const mcp = await t.app.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${badToken()}` }, payload: {} });
    expect(mcp.statusCode).toBe(429);
    expect(statements).toEqual([]);
  });
});
