import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { createRole } from '../../src/domain/keys/roles.js';
import * as teams from '../../src/domain/teams/teams.js';
import { addUserToTeam, createUser, disableUser, listUsers } from '../../src/domain/users/users.js';
import { verifyPassword } from '../../src/domain/users/password.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await t.db.prisma.apiKey.updateMany({ where: { team_id: t.teamId }, data: { rate_tier: 4 } });
});
afterAll(() => t?.close());

const USER_FIELDS = ['id', 'email', 'display_name', 'state', 'memberships', 'created_by', 'disabled_at', 'created_at', 'updated_at'].sort();

describe('/v1/users', () => {
  it('an ADMIN key creates a member of its team; the password is stored only as a scrypt hash', async () => {
    const role = await createRole(t.db, t.teamId, { name: 'readers', permissions: ['READ_ORDERS', 'WRITE_MCP'] });
    const res = await t.call('POST', '/v1/users', {
      body: { email: 'Ada@Example.com', display_name: 'Ada', password: 'correct horse battery', role_ids: [role.id, role.id] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json();
    expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    expect(res.body).not.toContain('correct horse');
    expect(res.body).not.toContain('scrypt');
    expect(user).toMatchObject({ email: 'ada@example.com', display_name: 'Ada', state: 'ACTIVE' });
    expect(user.memberships).toEqual([
      {
        team_id: t.teamId,
        team_name: expect.any(String),
        power_role: 'MEMBER',
        roles: [{ id: role.id, name: 'readers' }],
        permissions: ['READ_ORDERS', 'WRITE_MCP'],
      },
    ]);
    const row = await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('correct horse battery', row.password_hash)).toBe(true);
    expect(await verifyPassword('wrong horse battery', row.password_hash)).toBe(false);
  });

  it('refuses a used email (409), a short password, a bad email and unknown fields (400)', async () => {
    const dup = await t.call('POST', '/v1/users', { body: { email: 'ada@example.COM', display_name: 'A2', password: 'another long one' } });
    expect(dup.statusCode).toBe(409);
    for (const body of [
      { email: 'b@example.com', display_name: 'B', password: 'short' },
      { email: 'not-an-email', display_name: 'B', password: 'long enough pw' },
      { email: 'b@example.com', display_name: 'B', password: 'long enough pw', power: 'x' },
    ]) {
      const res = await t.call('POST', '/v1/users', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(await t.db.prisma.user.count({ where: { email: 'b@example.com' } })).toBe(0);
  });

  it('is for ADMIN keys only (403 for a MEMBER key, even with every permission it can hold)', async () => {
    const member = await t.key({ permissions: ['MANAGE_API_KEYS', 'WRITE_MCP'], tier: 4 });
    expect((await t.call('GET', '/v1/users', { token: member.token })).statusCode).toBe(403);
    const post = await t.call('POST', '/v1/users', {
      token: member.token,
      body: { email: 'm@example.com', display_name: 'M', password: 'long enough pw' },
    });
    expect(post.statusCode).toBe(403);
    expect(await t.db.prisma.user.count({ where: { email: 'm@example.com' } })).toBe(0);
  });

  it("lists only the caller's team members, showing only that membership", async () => {
    const other = await teams.createTeam(t.db, { name: 'Other fulfiller', kind: 'FULFILLER' });
    const both = await createUser(
      t.db,
      { email: 'both@example.com', display_name: 'Both', password: 'long enough pw', team_id: other.id },
      'test',
    );
    await addUserToTeam(t.db, both.id, t.teamId, { power_role: 'ADMIN' });
    await createUser(
      t.db,
      { email: 'elsewhere@example.com', display_name: 'Elsewhere', password: 'long enough pw', team_id: other.id },
      'test',
    );
    const list = (await t.call('GET', '/v1/users', { query: { limit: 50 } })).json();
    const emails = list.data.map((u: { email: string }) => u.email);
    expect(emails).toContain('both@example.com');
    expect(emails).not.toContain('elsewhere@example.com');
    const b = list.data.find((u: { email: string }) => u.email === 'both@example.com');
    expect(b.memberships).toHaveLength(1);
    expect(b.memberships[0]).toMatchObject({ team_id: t.teamId, power_role: 'ADMIN' });
    expect(b.memberships[0].permissions).toContain('WRITE_MCP');
    // The admin view (no team) shows every membership.
    const all = await listUsers(t.db, undefined, { page: 0, limit: 100 });
    expect(all.data.find((u) => u.email === 'both@example.com')!.memberships).toHaveLength(2);
  });

  it('add-to-team replaces the power role and roles of an existing membership; disabling is idempotent', async () => {
    const u = await createUser(
      t.db,
      { email: 'c@example.com', display_name: 'C', password: 'long enough pw', team_id: t.teamId, power_role: 'ADMIN' },
      'test',
    );
    const again = await addUserToTeam(t.db, u.id, t.teamId, { power_role: 'MEMBER', role_ids: [] });
    expect(again.memberships).toHaveLength(1);
    expect(again.memberships[0]).toMatchObject({ power_role: 'MEMBER', permissions: [] });
    await expect(addUserToTeam(t.db, u.id, t.teamId, { role_ids: ['nope'] })).rejects.toMatchObject({ kind: 'not-found' });
    const d1 = await disableUser(t.db, u.id);
    const d2 = await disableUser(t.db, u.id);
    expect(d1.state).toBe('DISABLED');
    expect(d2.disabled_at).toEqual(d1.disabled_at);
  });
});
