import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { PERMISSIONS } from '../../src/contract/permissions.js';
import { createRole } from '../../src/domain/keys/roles.js';
import { createKey } from '../../src/domain/keys/keys.js';
import * as teams from '../../src/domain/teams/teams.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await t.db.prisma.apiKey.updateMany({ where: { team_id: t.teamId }, data: { rate_tier: 4 } });
});
afterAll(() => t?.close());

const ROLE_FIELDS = ['id', 'team_id', 'name', 'description', 'permissions', 'created_at', 'updated_at'].sort();

describe('/v1/roles', () => {
  it('creates a role with deduplicated, sorted permissions', async () => {
    const res = await t.call('POST', '/v1/roles', {
      body: { name: 'pickers', description: 'floor staff', permissions: ['READ_ORDERS', 'READ_FULFILLMENTS', 'READ_ORDERS'] },
    });
    expect(res.statusCode).toBe(201);
    const role = res.json();
    expect(Object.keys(role).sort()).toEqual(ROLE_FIELDS);
    expect(role).toMatchObject({
      team_id: t.teamId,
      name: 'pickers',
      description: 'floor staff',
      permissions: ['READ_FULFILLMENTS', 'READ_ORDERS'],
    });
    expect(role.created_at).toMatch(/Z$/);
    const row = await t.db.prisma.role.findUniqueOrThrow({ where: { id: role.id } });
    expect([...(row.permissions as string[])].sort()).toEqual(['READ_FULFILLMENTS', 'READ_ORDERS']);
  });

  it('rejects an unknown permission with 400 listing the allowed values, writing nothing', async () => {
    const before = await t.db.prisma.role.count();
    const res = await t.call('POST', '/v1/roles', { body: { name: 'bad', permissions: ['READ_PRODUCTS', 'FLY'] } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json();
    expect(body.type).toBe('urn:fos:error:validation-failed');
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].path).toBe('body.permissions.1');
    for (const p of PERMISSIONS) expect(body.errors[0].message).toContain(p);
    expect(await t.db.prisma.role.count()).toBe(before);
  });

  it('role names are unique per team (409), not across teams', async () => {
    await t.call('POST', '/v1/roles', { body: { name: 'packers', permissions: [] } });
    const dup = await t.call('POST', '/v1/roles', { body: { name: 'packers', permissions: ['READ_PRODUCTS'] } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().type).toBe('urn:fos:error:conflict');
    const other = await teams.createTeam(t.db, { name: 'Merchant R', kind: 'MERCHANT' });
    await expect(createRole(t.db, other.id, { name: 'packers', permissions: [] })).resolves.toMatchObject({ name: 'packers' });
  });

  it('lists by name with 0-based pages; gets one', async () => {
    for (const name of ['zeta', 'alpha', 'mu']) await t.call('POST', '/v1/roles', { body: { name, permissions: ['READ_FILES'] } });
    const all = (await t.call('GET', '/v1/roles', { query: { limit: 100 } })).json();
    const names = all.data.map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort());
    expect(all.data.every((r: { team_id: string }) => r.team_id === t.teamId)).toBe(true);
    const p = (await t.call('GET', '/v1/roles', { query: { page: 1, limit: 1 } })).json();
    expect(p.data[0].name).toBe(names[1]);
    expect(p.meta).toMatchObject({ page: 1, page_size: 1, start_index: 2, end_index: 2, has_previous_page: true, has_next_page: true });
    const one = await t.call('GET', `/v1/roles/${all.data[0].id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(all.data[0]);
  });

  it('patches name, description and permissions; empty or conflicting patches are refused', async () => {
    const id = (await t.call('POST', '/v1/roles', { body: { name: 'shippers', permissions: ['READ_ORDERS'] } })).json().id;
    const res = await t.call('PATCH', `/v1/roles/${id}`, {
      body: { name: 'shipping', permissions: ['WRITE_FULFILLMENTS', 'READ_ORDERS'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'shipping', permissions: ['READ_ORDERS', 'WRITE_FULFILLMENTS'] });
    const desc = await t.call('PATCH', `/v1/roles/${id}`, { body: { description: 'dock' } });
    expect(desc.json()).toMatchObject({ name: 'shipping', description: 'dock', permissions: ['READ_ORDERS', 'WRITE_FULFILLMENTS'] });

    expect((await t.call('PATCH', `/v1/roles/${id}`, { body: {} })).statusCode).toBe(400);
    const clash = await t.call('PATCH', `/v1/roles/${id}`, { body: { name: 'pickers' } });
    expect(clash.statusCode).toBe(409);
    const bad = await t.call('PATCH', `/v1/roles/${id}`, { body: { permissions: ['NOPE'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.permissions.0');
    const row = await t.db.prisma.role.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ name: 'shipping', description: 'dock' });
  });

  it('deletes a role: 204, its key assignments go, keys lose its permissions at once', async () => {
    const id = (await t.call('POST', '/v1/roles', { body: { name: 'temp', permissions: ['MANAGE_API_KEYS'] } })).json().id;
    const key = await createKey(t.db, t.teamId, { name: 'temp holder', role_ids: [id] }, null);
    expect((await t.call('GET', '/v1/roles', { token: key.token })).statusCode).toBe(200);
    const del = await t.call('DELETE', `/v1/roles/${id}`);
    expect(del.statusCode).toBe(204);
    expect(await t.db.prisma.apiKeyRole.count({ where: { role_id: id } })).toBe(0);
    expect(await t.db.prisma.role.count({ where: { id } })).toBe(0);
    expect((await t.call('GET', '/v1/roles', { token: key.token })).statusCode).toBe(403);
    expect((await t.call('GET', `/v1/roles/${id}`)).statusCode).toBe(404);
    expect((await t.call('DELETE', `/v1/roles/${id}`)).statusCode).toBe(404);
  });

  it('roles of another team answer 404 and stay unchanged', async () => {
    const other = await teams.createTeam(t.db, { name: 'Other F', kind: 'FULFILLER' });
    const theirs = await createRole(t.db, other.id, { name: 'theirs', permissions: ['READ_PRODUCTS'] });
    const mine = (await t.call('POST', '/v1/roles', { body: { name: 'mine', permissions: [] } })).json();
    const key = await t.call('POST', '/v1/keys', { body: { name: 'k' } });
    const cases = [
      t.call('GET', `/v1/roles/${theirs.id}`),
      t.call('PATCH', `/v1/roles/${theirs.id}`, { body: { name: 'hijacked' } }),
      t.call('DELETE', `/v1/roles/${theirs.id}`),
      t.call('PUT', `/v1/keys/${key.json().id}/roles`, { body: { role_ids: [mine.id, theirs.id] } }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ type: 'urn:fos:error:not-found', title: 'Not Found' });
    }
    expect(await t.db.prisma.role.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ name: 'theirs' });
    expect(await t.db.prisma.apiKeyRole.count({ where: { api_key_id: key.json().id } })).toBe(0);
  });

  it('needs MANAGE_API_KEYS', async () => {
    const k = await t.key({ permissions: ['READ_PRODUCTS'] });
    for (const [method, url] of [
      ['GET', '/v1/roles'],
      ['POST', '/v1/roles'],
      ['GET', '/v1/roles/x'],
      ['DELETE', '/v1/roles/x'],
    ]) {
      const res = await t.call(method, url, { token: k.token, body: method === 'POST' ? { name: 'n', permissions: [] } : undefined });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toMatch(/MANAGE_API_KEYS/);
    }
  });
});
