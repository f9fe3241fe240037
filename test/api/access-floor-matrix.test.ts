import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate, packageRoot } from '../../src/db/migrate.js';
import { freshPostgresUrl, freshSqliteUrl } from '../helpers/db.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { person } from '../helpers/oauth.js';

// Issue 37 item 7: a picker — a key whose only role is READ/WRITE_FULFILLMENTS, and the same
// person signed in on /floor — can pick, pack and ship and nothing else. Every operation of the
// OpenAPI document is called with both; outside the picking, packing and shipping families the
// answer is 403. Carrier integrations are managed with MANAGE_CARRIERS (an extension), which the
// migration grants to roles with admin rights (MANAGE_API_KEYS).

let t: TestApp;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
  for (const c of cleanups.reverse()) await c();
});

/** Picking, packing and shipping (docs/access.md): what a picker may do. */
const PICK_PACK_SHIP = [
  /^\/ops\/fulfillment-orders/,
  /^\/ops\/(v1\/)?picking-sessions/,
  /^\/ops\/totes/,
  /^\/ops\/packages/,
  /^\/ops\/carrier-rates/,
  /^\/ops\/scan-forms/,
  /^\/ops\/label-batches/,
];
/** Read only: which carriers a package can go with. */
const READ_FOR_SHIPPING = [/^\/ops\/carrier-integrations/];
const SELF = new Set(['GET /me']);
/** Public: signed by the platform, no key (tested in their own files). */
const PUBLIC = [/^\/channels\//, /^\/carriers\/[^/]+\/webhooks/];

const mayPicker = (method: string, p: string) =>
  SELF.has(`${method} ${p}`) || PICK_PACK_SHIP.some((r) => r.test(p)) || (method === 'GET' && READ_FOR_SHIPPING.some((r) => r.test(p)));

const ID = '01900000-0000-7000-8000-000000000000';
const bodyFor = (method: string, p: string) =>
  method === 'GET' || method === 'DELETE'
    ? undefined
    : p === '/users'
      ? { email: 'new@example.test', display_name: 'New', password: 'a long enough password 1' }
      : {};

describe('a picker can do nothing outside picking, packing and shipping', () => {
  it('holds for every operation, with the picker key and with the floor sign-in', async () => {
    const doc = (await t.call('GET', '/v1/swagger.json')).json();
    const key = await t.key({ permissions: ['READ_FULFILLMENTS', 'WRITE_FULFILLMENTS'], tier: 4 });
    const picker = await person(t.db, t.teamId, ['READ_FULFILLMENTS', 'WRITE_FULFILLMENTS']);
    const signIn = await t.call('POST', '/floor/session', { token: null, body: { email: picker.email, password: picker.password } });
    expect(signIn.statusCode, signIn.body).toBe(201);
    // The matrix is ~200 calls: the sign-in's connection gets the top tier so none is rate-limited.
    await t.db.prisma.mcpConnection.updateMany({ where: { user_id: picker.id }, data: { rate_tier: 4 } });
    const callers = { key: key.token, floor: signIn.json().access_token as string };
    const wrong: string[] = [];
    let ops = 0;
    for (const [p, methods] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (PUBLIC.some((r) => r.test(p))) continue;
      for (const m of Object.keys(methods)) {
        const method = m.toUpperCase();
        const url = `/v1${p.replace(/\{[^}]+\}/g, ID)}`;
        ops++;
        for (const [who, token] of Object.entries(callers)) {
          const res = await t.call(method as never, url, { token, body: bodyFor(method, p) });
          const allowed = mayPicker(method, p);
          if (allowed ? res.statusCode === 403 || res.statusCode === 401 : res.statusCode !== 403)
            wrong.push(`${who} ${method} ${p}: ${res.statusCode} (expected ${allowed ? 'allowed' : '403'})`);
        }
      }
    }
    expect(ops).toBeGreaterThan(150);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('carrier integrations: MANAGE_CARRIERS creates and deletes, WRITE_FULFILLMENTS alone may not', async () => {
    const manager = await t.key({ permissions: ['READ_FULFILLMENTS', 'MANAGE_CARRIERS'], tier: 4 });
    const picker = await t.key({ permissions: ['READ_FULFILLMENTS', 'WRITE_FULFILLMENTS'], tier: 4 });
    const body = { name: 'Table', type: 'TABLE' };
    const refused = await t.call('POST', '/v1/ops/carrier-integrations', { token: picker.token, body });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/MANAGE_CARRIERS/);
    const made = await t.call('POST', '/v1/ops/carrier-integrations', { token: manager.token, body });
    expect(made.statusCode, made.body).toBe(201);
    expect((await t.call('GET', `/v1/ops/carrier-integrations/${made.json().id}`, { token: picker.token })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/v1/ops/carrier-integrations/${made.json().id}`, { token: picker.token })).statusCode).toBe(403);
    expect((await t.call('DELETE', `/v1/ops/carrier-integrations/${made.json().id}`, { token: manager.token })).statusCode).toBe(200);
  });
});

const provider = /^postgres/.test(process.env.FOS_TEST_DB ?? '') ? 'postgresql' : 'sqlite';

describe(`the MANAGE_CARRIERS migration (${provider})`, () => {
  it('grants it to roles holding MANAGE_API_KEYS, sorted, and leaves the others alone', async () => {
    const src = path.join(packageRoot(), 'prisma', 'migrations', provider);
    const dir = await mkdtemp(path.join(tmpdir(), 'fos-premigr-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    for (const n of (await readdir(src)).sort()) {
      if (n.endsWith('_manage_carriers')) break;
      await cp(path.join(src, n), path.join(dir, n), { recursive: true });
    }
    const fresh = provider === 'postgresql' ? await freshPostgresUrl() : await freshSqliteUrl();
    cleanups.push(fresh.cleanup);
    await migrate(fresh.url, { migrationsDir: dir });
    let db = await createDb(fresh.url);
    const team = await db.prisma.team.create({ data: { name: 'Old', kind: 'FULFILLER' } });
    const roles = {
      admin: ['MANAGE_API_KEYS', 'READ_ORDERS', 'WRITE_FULFILLMENTS'],
      picker: ['READ_FULFILLMENTS', 'WRITE_FULFILLMENTS'],
    };
    for (const [name, permissions] of Object.entries(roles)) await db.prisma.role.create({ data: { team_id: team.id, name, permissions } });
    await db.close();
    const { applied } = await migrate(fresh.url);
    expect(applied.filter((n) => n.endsWith('_manage_carriers'))).toHaveLength(1);
    db = await createDb(fresh.url);
    cleanups.push(() => db.close());
    const after = Object.fromEntries((await db.prisma.role.findMany()).map((r) => [r.name, r.permissions]));
    expect(after).toEqual({
      admin: ['MANAGE_API_KEYS', 'MANAGE_CARRIERS', 'READ_ORDERS', 'WRITE_FULFILLMENTS'],
      picker: ['READ_FULFILLMENTS', 'WRITE_FULFILLMENTS'],
    });
  });
});
