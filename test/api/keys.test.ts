import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { hashToken, isWellFormedToken } from '../../src/domain/keys/token.js';
import * as teams from '../../src/domain/teams/teams.js';
import { createKey } from '../../src/domain/keys/keys.js';
import { createRole } from '../../src/domain/keys/roles.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  // These tests make more than tier 1's 30 requests per minute with the bootstrap key.
  await t.db.prisma.apiKey.updateMany({ where: { team_id: t.teamId }, data: { rate_tier: 4 } });
});
afterAll(() => t?.close());

const KEY_FIELDS = [
  'id',
  'name',
  'description',
  'power_role',
  'state',
  'rate_tier',
  'token_hint',
  'team_id',
  'roles',
  'permissions',
  'expires_at',
  'created_by',
  'disabled_at',
  'created_at',
  'updated_at',
].sort();

async function role(name: string, permissions: string[], token = t.adminToken) {
  const res = await t.call('POST', '/v1/roles', { token, body: { name, permissions } });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

async function newKey(body: Record<string, unknown>, token = t.adminToken) {
  const res = await t.call('POST', '/v1/keys', { token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /v1/keys', () => {
  it('creates a MEMBER key by default and shows the token once', async () => {
    const before = Date.now();
    const res = await t.call('POST', '/v1/keys', { body: { name: 'packing station 3', description: 'scanner' } });
    expect(res.statusCode).toBe(201);
    const key = res.json();
    expect(Object.keys(key).sort()).toEqual([...KEY_FIELDS, 'token'].sort());
    expect(key).toMatchObject({
      name: 'packing station 3',
      description: 'scanner',
      power_role: 'MEMBER',
      state: 'ACTIVE',
      rate_tier: 1,
      team_id: t.teamId,
      roles: [],
      permissions: [],
      expires_at: null,
      disabled_at: null,
    });
    expect(isWellFormedToken(key.token)).toBe(true);
    expect(key.token_hint).toBe(`fos_…${key.token.slice(-4)}`);
    expect(Date.parse(key.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(key.created_at).toMatch(/Z$/);
    const me = await t.call('GET', '/v1/me');
    expect(key.created_by).toBe(me.json().key_id);

    const row = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.token_hash).toBe(hashToken(key.token));
    expect(JSON.stringify(row)).not.toContain(key.token);
  });

  it('never shows the token or its hash again (detail and list)', async () => {
    const key = await newKey({ name: 'secret keeper' });
    const row = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    const detail = await t.call('GET', `/v1/keys/${key.id}`);
    expect(detail.statusCode).toBe(200);
    expect(Object.keys(detail.json()).sort()).toEqual(KEY_FIELDS);
    const list = await t.call('GET', '/v1/keys', { query: { limit: 100 } });
    expect(list.statusCode).toBe(200);
    for (const body of [detail.body, list.body]) {
      expect(body).not.toContain(key.token);
      expect(body).not.toContain(key.token.slice(4, 36));
      expect(body).not.toContain(row.token_hash);
      expect(body).not.toContain('token_hash');
      expect(body).not.toContain('"token"');
    }
    expect(list.json().data.find((k: { id: string }) => k.id === key.id)).toEqual(detail.json());
  });

  it('creates an ADMIN key with roles, tier and expiry', async () => {
    const r = await role('admin-extra', ['READ_ORDERS']);
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const key = await newKey({ name: 'ops admin', power_role: 'ADMIN', role_ids: [r, r], rate_tier: 3, expires_at: expires });
    expect(key).toMatchObject({ power_role: 'ADMIN', rate_tier: 3, expires_at: expires, roles: [{ id: r, name: 'admin-extra' }] });
    expect(key.permissions).toContain('MANAGE_API_KEYS');
    const me = await t.call('GET', '/v1/me', { token: key.token });
    expect(me.json()).toMatchObject({ power_role: 'ADMIN', rate_tier: 3 });
    expect(me.headers['x-ratelimit-limit']).toBe('600');
  });

  it('rejects an expiry in the past and writes nothing', async () => {
    const count = await t.db.prisma.apiKey.count();
    const res = await t.call('POST', '/v1/keys', { body: { name: 'late', expires_at: '2001-01-01T00:00:00Z' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.expires_at', message: 'must be in the future' }]);
    expect(await t.db.prisma.apiKey.count()).toBe(count);
  });

  it('an expired key answers 401', async () => {
    // The app's clock (the key check's) is the test's: it passes the expiry without a wait, and a
    // slow machine cannot pass it before the first request.
    let now = Date.now();
    const c = await testApp({ clock: () => now });
    try {
      const expires_at = new Date(now + 60_000).toISOString();
      const created = await c.call('POST', '/v1/keys', { body: { name: 'short lived', power_role: 'ADMIN', expires_at } });
      expect(created.statusCode).toBe(201);
      const { token } = created.json();
      now += 59_000;
      expect((await c.call('GET', '/v1/me', { token })).statusCode).toBe(200);
      now += 1_000;
      const res = await c.call('GET', '/v1/me', { token });
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toMatch(/expired/);
    } finally {
      await c.close();
    }
  });

  it('404s a role of another team and writes nothing', async () => {
    const other = await teams.createTeam(t.db, { name: 'Other WH', kind: 'FULFILLER' });
    const foreign = await createRole(t.db, other.id, { name: 'theirs', permissions: ['READ_PRODUCTS'] });
    const count = await t.db.prisma.apiKey.count();
    const res = await t.call('POST', '/v1/keys', { body: { name: 'x', role_ids: [foreign.id] } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: 'urn:fos:error:not-found', title: 'Not Found' });
    expect(await t.db.prisma.apiKey.count()).toBe(count);
  });
});

describe('MEMBER permissions through roles', () => {
  it('a MEMBER key with no roles can do nothing; roles grant their deduplicated union at once', async () => {
    const member = await newKey({ name: 'member' });
    // No permission at all: products and key management are refused.
    expect((await t.call('GET', '/v1/ops/products', { token: member.token })).statusCode).toBe(403);
    const refused = await t.call('GET', '/v1/keys', { token: member.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ type: 'urn:fos:error:forbidden', status: 403 });
    expect(refused.json().detail).toMatch(/MANAGE_API_KEYS/);
    expect((await t.call('GET', '/v1/me', { token: member.token })).json().permissions).toEqual([]);

    const readProducts = await role('readers', ['READ_PRODUCTS', 'READ_ORDERS']);
    const keyAdmin = await role('key admins', ['MANAGE_API_KEYS', 'READ_PRODUCTS']);
    const put = await t.call('PUT', `/v1/keys/${member.id}/roles`, { body: { role_ids: [readProducts, keyAdmin] } });
    expect(put.statusCode).toBe(200);
    expect(put.json().permissions).toEqual(['MANAGE_API_KEYS', 'READ_ORDERS', 'READ_PRODUCTS']);
    expect(put.json().roles.map((r: { name: string }) => r.name)).toEqual(['key admins', 'readers']);

    // Takes effect at once (the principal cache is cleared), deduplicated.
    const me = await t.call('GET', '/v1/me', { token: member.token });
    expect(me.json().permissions).toEqual(['MANAGE_API_KEYS', 'READ_ORDERS', 'READ_PRODUCTS']);
    expect((await t.call('GET', '/v1/keys', { token: member.token })).statusCode).toBe(200);

    // Products: READ_PRODUCTS -> 200; WRITE_PRODUCTS is in no role -> 403.
    expect((await t.call('GET', '/v1/ops/products', { token: member.token })).statusCode).toBe(200);
    const write = await t.call('POST', '/v1/ops/products', { token: member.token, body: {} });
    expect(write.statusCode).toBe(403);
    expect(write.json().detail).toMatch(/WRITE_PRODUCTS/);

    // Removing the role that grants MANAGE_API_KEYS removes it at once.
    const shrink = await t.call('PUT', `/v1/keys/${member.id}/roles`, { body: { role_ids: [readProducts] } });
    expect(shrink.json().permissions).toEqual(['READ_ORDERS', 'READ_PRODUCTS']);
    expect((await t.call('GET', '/v1/keys', { token: member.token })).statusCode).toBe(403);
    const rows = await t.db.prisma.apiKeyRole.findMany({ where: { api_key_id: member.id } });
    expect(rows.map((r) => r.role_id)).toEqual([readProducts]);

    // A role change applies to every key holding it, at once.
    const patch = await t.call('PATCH', `/v1/roles/${readProducts}`, { body: { permissions: ['READ_PRODUCTS', 'MANAGE_API_KEYS'] } });
    expect(patch.statusCode).toBe(200);
    expect((await t.call('GET', '/v1/keys', { token: member.token })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/v1/roles/${readProducts}`)).statusCode).toBe(204);
    expect((await t.call('GET', '/v1/me', { token: member.token })).json().permissions).toEqual([]);
  });

  it('a MEMBER key manager cannot grant more than it holds', async () => {
    const managers = await role('managers', ['MANAGE_API_KEYS', 'READ_PRODUCTS']);
    const mgr = await newKey({ name: 'manager', role_ids: [managers] });
    const admin = await t.call('POST', '/v1/keys', { token: mgr.token, body: { name: 'escalate', power_role: 'ADMIN' } });
    expect(admin.statusCode).toBe(403);
    const tier = await t.call('POST', '/v1/keys', { token: mgr.token, body: { name: 'fast', rate_tier: 2 } });
    expect(tier.statusCode).toBe(403);
    expect(tier.json().detail).toMatch(/tier above 1/);
    const bigRole = await t.call('POST', '/v1/roles', { token: mgr.token, body: { name: 'big', permissions: ['WRITE_ORDERS'] } });
    expect(bigRole.statusCode).toBe(403);
    expect(bigRole.json().detail).toMatch(/WRITE_ORDERS/);
    const writers = await role('writers', ['WRITE_ORDERS']);
    const assign = await t.call('POST', '/v1/keys', { token: mgr.token, body: { name: 'w', role_ids: [writers] } });
    expect(assign.statusCode).toBe(403);

    // Within its own permissions it may act, and tier 1 is allowed.
    const ok = await newKey({ name: 'reader', role_ids: [managers], rate_tier: 1 }, mgr.token);
    expect(ok.created_by).toBe(mgr.id);
    const root = (await t.call('GET', '/v1/me')).json().key_id;
    expect((await t.call('POST', `/v1/keys/${root}/disable`, { token: mgr.token })).statusCode).toBe(403);
    expect((await t.call('PUT', `/v1/keys/${ok.id}/tier`, { token: mgr.token, body: { tier: 2 } })).statusCode).toBe(403);
    expect((await t.call('PUT', `/v1/keys/${ok.id}/tier`, { token: mgr.token, body: { tier: 1 } })).statusCode).toBe(200);
    expect(await t.db.prisma.apiKey.count({ where: { name: { in: ['escalate', 'fast', 'w'] } } })).toBe(0);
  });
});

describe('key lifecycle', () => {
  it('lists with 0-based pages', async () => {
    const all = (await t.call('GET', '/v1/keys', { query: { limit: 100 } })).json();
    const total = all.data.length;
    expect(total).toBeGreaterThan(3);
    const p1 = await t.call('GET', '/v1/keys', { query: { page: 1, limit: 2 } });
    expect(p1.statusCode).toBe(200);
    expect(p1.json().meta).toEqual({
      page: 1,
      page_size: 2,
      start_index: 3,
      end_index: 4,
      has_next_page: total > 4,
      next_cursor: total > 4 ? expect.any(String) : null,
      has_previous_page: true,
    });
    expect(p1.json().data.map((k: { id: string }) => k.id)).toEqual(all.data.slice(2, 4).map((k: { id: string }) => k.id));
    const def = (await t.call('GET', '/v1/keys')).json();
    expect(def.meta).toMatchObject({ page: 0, page_size: 20 });
  });

  it('disable: the token stops working at once, others keep working; idempotent', async () => {
    const a = await newKey({ name: 'old', power_role: 'ADMIN' });
    const b = await newKey({ name: 'new', power_role: 'ADMIN' });
    expect((await t.call('GET', '/v1/me', { token: a.token })).statusCode).toBe(200);
    const res = await t.call('POST', `/v1/keys/${a.id}/disable`, { token: b.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: a.id, state: 'DISABLED' });
    expect(res.json().disabled_at).toMatch(/Z$/);
    const denied = await t.call('GET', '/v1/me', { token: a.token });
    expect(denied.statusCode).toBe(401);
    expect(denied.json().title).toBe('Unauthorized');
    expect((await t.call('GET', '/v1/me', { token: b.token })).statusCode).toBe(200);
    const again = await t.call('POST', `/v1/keys/${a.id}/disable`);
    expect(again.json().disabled_at).toBe(res.json().disabled_at);
    expect((await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: a.id } })).state).toBe('DISABLED');
  });

  it('delete: 204, gone at once; a key cannot delete itself', async () => {
    const a = await newKey({ name: 'doomed', power_role: 'ADMIN' });
    const self = await t.call('DELETE', `/v1/keys/${a.id}`, { token: a.token });
    expect(self.statusCode).toBe(409);
    expect(self.json().type).toBe('urn:fos:error:conflict');
    expect((await t.call('GET', '/v1/me', { token: a.token })).statusCode).toBe(200);
    const del = await t.call('DELETE', `/v1/keys/${a.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await t.call('GET', '/v1/me', { token: a.token })).statusCode).toBe(401);
    expect((await t.call('GET', `/v1/keys/${a.id}`)).statusCode).toBe(404);
    expect((await t.call('DELETE', `/v1/keys/${a.id}`)).statusCode).toBe(404);
    expect(await t.db.prisma.apiKey.count({ where: { id: a.id } })).toBe(0);
  });

  it('concurrent role replacements on one key all succeed and leave exactly one of the sets', async () => {
    const ids = [await role('race a', ['READ_FILES']), await role('race b', ['READ_VENDORS']), await role('race c', ['READ_CHARGES'])];
    const target = await newKey({ name: 'raced' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const sets = Array.from({ length: 12 }, (_, i) => ids.filter((_, j) => (i + j) % 3 !== 0));
      const results = await Promise.all(
        sets.map((role_ids) =>
          fetch(`${address}/v1/keys/${target.id}/roles`, {
            method: 'PUT',
            headers: { 'x-access-token': t.adminToken, 'content-type': 'application/json' },
            body: JSON.stringify({ role_ids }),
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    } finally {
      await t.app.server.close();
    }
    const links = (await t.db.prisma.apiKeyRole.findMany({ where: { api_key_id: target.id } })).map((l) => l.role_id).sort();
    expect(links).toHaveLength(2);
    expect(
      [
        [ids[1], ids[2]],
        [ids[0], ids[2]],
        [ids[0], ids[1]],
      ].map((x) => x.sort()),
    ).toContainEqual(links);
    const shown = (await t.call('GET', `/v1/keys/${target.id}`)).json();
    expect(shown.roles.map((r: { id: string }) => r.id).sort()).toEqual(links);
  });

  it('tier: changes the limit at once', async () => {
    const a = await newKey({ name: 'tiered', power_role: 'ADMIN' });
    expect((await t.call('GET', '/v1/me', { token: a.token })).headers['x-ratelimit-limit']).toBe('30');
    const res = await t.call('PUT', `/v1/keys/${a.id}/tier`, { body: { tier: 4 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().rate_tier).toBe(4);
    expect((await t.call('GET', '/v1/me', { token: a.token })).headers['x-ratelimit-limit']).toBe('3000');
    for (const tier of [0, 5, 2.5, '2']) {
      const bad = await t.call('PUT', `/v1/keys/${a.id}/tier`, { body: { tier } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0].path).toBe('body.tier');
    }
    expect((await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: a.id } })).rate_tier).toBe(4);
  });

  it("keys of another team (and unknown ids) answer 404 everywhere, also to that team's ADMIN", async () => {
    const other = await teams.createTeam(t.db, { name: 'Merchant M', kind: 'MERCHANT' });
    const theirs = await createKey(t.db, other.id, { name: 'theirs', power_role: 'ADMIN' }, null);
    const ours = await newKey({ name: 'ours' });
    for (const [id, token] of [
      [theirs.id, t.adminToken],
      [ours.id, theirs.token],
      ['no-such-key', t.adminToken],
    ]) {
      const calls = [
        t.call('GET', `/v1/keys/${id}`, { token }),
        t.call('POST', `/v1/keys/${id}/disable`, { token }),
        t.call('DELETE', `/v1/keys/${id}`, { token }),
        t.call('PUT', `/v1/keys/${id}/roles`, { token, body: { role_ids: [] } }),
        t.call('PUT', `/v1/keys/${id}/tier`, { token, body: { tier: 1 } }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().type).toBe('urn:fos:error:not-found');
      }
    }
    // Merchant teams manage their own keys too (no path family), and see only theirs.
    const list = (await t.call('GET', '/v1/keys', { token: theirs.token })).json();
    expect(list.data.map((k: { id: string }) => k.id)).toEqual([theirs.id]);
    expect(await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ state: 'ACTIVE', rate_tier: 1 });
    expect(await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: ours.id } })).toMatchObject({ state: 'ACTIVE' });
  });
});
