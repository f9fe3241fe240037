import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

// Issue 7 item 9: a MEMBER key holding MANAGE_API_KEYS cannot change or remove a role or key whose
// permissions exceed its own; it still manages those within its own permissions.
let t: TestApp;
let manager: { id: string; token: string };
beforeAll(async () => {
  t = await testApp();
  await t.db.prisma.apiKey.updateMany({ where: { team_id: t.teamId }, data: { rate_tier: 4 } });
  manager = await t.key({ permissions: ['MANAGE_API_KEYS', 'READ_PRODUCTS'], tier: 4 });
});
afterAll(() => t?.close());

async function role(name: string, permissions: string[]) {
  const res = await t.call('POST', '/v1/roles', { body: { name, permissions } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function memberKey(name: string, roleIds: string[]) {
  const res = await t.call('POST', '/v1/keys', { body: { name, role_ids: roleIds } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

describe('MEMBER with MANAGE_API_KEYS against more powerful roles and keys', () => {
  it('cannot delete or update a role granting permissions it lacks', async () => {
    const strong = await role('strong', ['WRITE_ORDERS', 'READ_PRODUCTS']);
    const del = await t.call('DELETE', `/v1/roles/${strong}`, { token: manager.token });
    expect(del.statusCode, del.body).toBe(403);
    expect(del.json().detail).toMatch(/WRITE_ORDERS/);
    const patch = await t.call('PATCH', `/v1/roles/${strong}`, { token: manager.token, body: { permissions: ['READ_PRODUCTS'] } });
    expect(patch.statusCode).toBe(403);
    const rename = await t.call('PATCH', `/v1/roles/${strong}`, { token: manager.token, body: { name: 'weak now' } });
    expect(rename.statusCode).toBe(403);
    const after = await t.call('GET', `/v1/roles/${strong}`);
    expect(after.json()).toMatchObject({ name: 'strong', permissions: ['READ_PRODUCTS', 'WRITE_ORDERS'] });
  });

  it('cannot disable, delete, re-role or re-tier a key holding permissions it lacks', async () => {
    const strongRole = await role('strong key role', ['WRITE_FULFILLMENTS']);
    const key = await memberKey('strong key', [strongRole]);
    const weakRole = await role('weak key role', ['READ_PRODUCTS']);
    for (const [method, url, body] of [
      ['POST', `/v1/keys/${key}/disable`, undefined],
      ['DELETE', `/v1/keys/${key}`, undefined],
      ['PUT', `/v1/keys/${key}/roles`, { role_ids: [weakRole] }],
      ['PUT', `/v1/keys/${key}/tier`, { tier: 1 }],
    ] as const) {
      const res = await t.call(method, url, { token: manager.token, body });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    }
    const after = await t.call('GET', `/v1/keys/${key}`);
    expect(after.json()).toMatchObject({ state: 'ACTIVE', permissions: ['WRITE_FULFILLMENTS'] });
  });

  it('still manages roles and keys within its own permissions', async () => {
    const weak = await role('weak', ['READ_PRODUCTS']);
    const key = await memberKey('weak key', [weak]);
    expect((await t.call('PATCH', `/v1/roles/${weak}`, { token: manager.token, body: { description: 'ok' } })).statusCode).toBe(200);
    expect((await t.call('PUT', `/v1/keys/${key}/roles`, { token: manager.token, body: { role_ids: [] } })).statusCode).toBe(200);
    expect((await t.call('POST', `/v1/keys/${key}/disable`, { token: manager.token })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/v1/keys/${key}`, { token: manager.token })).statusCode).toBe(204);
    expect((await t.call('DELETE', `/v1/roles/${weak}`, { token: manager.token })).statusCode).toBe(204);
    // Granting beyond its own permissions stays refused.
    const grant = await t.call('POST', '/v1/roles', { token: manager.token, body: { name: 'escalate', permissions: ['WRITE_ORDERS'] } });
    expect(grant.statusCode).toBe(403);
  });
});
