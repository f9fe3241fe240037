import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

// Spec §7 across the API, exercised on /v1/keys and /v1/roles: bad input is always a 400
// validation-failed naming the field (413 for an oversize body), never a 500, and nothing is
// written. Every problem's detail ends with a unique support reference that is also the
// trace_id of the request's JSON log lines.

const lines: string[] = [];
const stream = { write: (line: string) => void lines.push(line) };
let t: TestApp;
beforeAll(async () => {
  t = await testApp({ logger: { level: 'info', stream } });
  await t.db.prisma.apiKey.updateMany({ where: { team_id: t.teamId }, data: { rate_tier: 4 } });
});
afterAll(() => t?.close());

const TRACE = / \(support reference: ([0-9a-f]{16})\)$/;

const counts = async () => ({
  keys: await t.db.prisma.apiKey.count(),
  roles: await t.db.prisma.role.count(),
  links: await t.db.prisma.apiKeyRole.count(),
});

async function expect400(res: Awaited<ReturnType<TestApp['call']>>, path: string, message?: RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(body).toMatchObject({ type: 'urn:fos:error:validation-failed', title: 'Validation Failed', status: 400 });
  expect(body.detail).toMatch(TRACE);
  const hit = body.errors.find((e: { path: string }) => e.path === path);
  expect(hit, `no error for ${path} in ${JSON.stringify(body.errors)}`).toBeDefined();
  if (message) expect(hit.message).toMatch(message);
  return body;
}

const raw = (method: string, url: string, payload: string, contentType = 'application/json') =>
  t.app.inject({ method: method as 'POST', url, payload, headers: { 'x-access-token': t.adminToken, 'content-type': contentType } });

describe('validation errors name the field and write nothing', () => {
  let keyId: string;
  let before: Awaited<ReturnType<typeof counts>>;
  beforeAll(async () => {
    keyId = (await t.call('POST', '/v1/keys', { body: { name: 'target' } })).json().id;
    before = await counts();
  });
  afterAll(async () => {
    expect(await counts()).toEqual(before);
    const row = await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(row).toMatchObject({ name: 'target', rate_tier: 1, state: 'ACTIVE' });
  });

  it('malformed JSON', async () => {
    for (const payload of ['{"name": "x",', '{name: x}', 'nul', '{"name": "p", "__proto__": {"admin": true}}']) {
      await expect400(await raw('POST', '/v1/keys', payload), 'body', /not valid JSON/);
      await expect400(await raw('POST', '/v1/roles', payload), 'body', /not valid JSON/);
    }
    await expect400(await raw('PUT', `/v1/keys/${keyId}/tier`, '{"tier": 2'), 'body', /not valid JSON/);
  });

  it('a body that is not an object', async () => {
    for (const payload of ['[]', '"name"', '42', 'null']) {
      await expect400(await raw('POST', '/v1/keys', payload), 'body', /object/);
    }
    await expect400(await t.app.inject({ method: 'POST', url: '/v1/roles', headers: { 'x-access-token': t.adminToken } }), 'body');
  });

  it('wrong types', async () => {
    await expect400(await t.call('POST', '/v1/keys', { body: { name: 42 } }), 'body.name', /string/);
    await expect400(await t.call('POST', '/v1/keys', { body: { name: 'x', role_ids: 'abc' } }), 'body.role_ids', /array/);
    await expect400(await t.call('POST', '/v1/keys', { body: { name: 'x', rate_tier: '2' } }), 'body.rate_tier', /integer/);
    await expect400(await t.call('POST', '/v1/keys', { body: { name: 'x', expires_at: 'tomorrow' } }), 'body.expires_at');
    await expect400(await t.call('POST', '/v1/roles', { body: { name: 'r', permissions: 'READ_PRODUCTS' } }), 'body.permissions', /array/);
    await expect400(await t.call('PUT', `/v1/keys/${keyId}/roles`, { body: { role_ids: [1] } }), 'body.role_ids.0', /string/);
    await expect400(await t.call('PUT', `/v1/keys/${keyId}/tier`, { body: { tier: true } }), 'body.tier', /integer/);
  });

  it('missing and empty required fields', async () => {
    await expect400(await t.call('POST', '/v1/keys', { body: {} }), 'body.name', /required/);
    await expect400(await t.call('POST', '/v1/keys', { body: { name: '' } }), 'body.name');
    await expect400(await t.call('POST', '/v1/roles', { body: { name: 'r' } }), 'body.permissions', /required/);
    await expect400(await t.call('PUT', `/v1/keys/${keyId}/roles`, { body: {} }), 'body.role_ids', /required/);
  });

  it('unknown enum values', async () => {
    await expect400(
      await t.call('POST', '/v1/keys', { body: { name: 'x', power_role: 'OWNER' } }),
      'body.power_role',
      /one of ADMIN, MEMBER/,
    );
    await expect400(
      await t.call('POST', '/v1/roles', { body: { name: 'r', permissions: ['read_products'] } }),
      'body.permissions.0',
      /READ_PRODUCTS/,
    );
  });

  it('out-of-range numbers', async () => {
    for (const tier of [0, 5, 1.5]) {
      await expect400(await t.call('POST', '/v1/keys', { body: { name: 'x', rate_tier: tier } }), 'body.rate_tier');
    }
    for (const url of ['/v1/keys', '/v1/roles']) {
      await expect400(await t.call('GET', url, { query: { limit: 0 } }), 'query.limit', />= 1/);
      await expect400(await t.call('GET', url, { query: { limit: 101 } }), 'query.limit', /<= 100/);
      await expect400(await t.call('GET', url, { query: { limit: 'ten' } }), 'query.limit', /number/);
      await expect400(await t.call('GET', url, { query: { page: -1 } }), 'query.page', />= 0/);
      await expect400(await t.call('GET', url, { query: { page: 1.5 } }), 'query.page');
      await expect400(await t.call('GET', url, { query: { page: 1_000_001 } }), 'query.page', /<= 1000000/);
    }
  });

  it('unknown fields in a write', async () => {
    await expect400(await t.call('POST', '/v1/keys', { body: { name: 'x', colour: 'red' } }), 'body.colour', /not a known field/);
    await expect400(await t.call('POST', '/v1/keys', { body: { name: 'x', token: 'fos_mine' } }), 'body.token', /not a known field/);
    await expect400(await t.call('POST', '/v1/roles', { body: { name: 'r', permissions: [], team_id: 'x' } }), 'body.team_id');
    await expect400(await t.call('PATCH', '/v1/roles/whatever', { body: { perms: [] } }), 'body.perms');
    await expect400(await t.call('PUT', `/v1/keys/${keyId}/tier`, { body: { tier: 2, why: 'x' } }), 'body.why');
  });

  it('reports every bad field at once', async () => {
    const body = await expect400(await t.call('POST', '/v1/keys', { body: { name: 1, power_role: 'X', extra: true } }), 'body.name');
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.extra', 'body.name', 'body.power_role']);
    expect(body.detail).toContain('body.power_role');
  });

  it('undecodable URLs and repeated parameters', async () => {
    for (const url of ['/v1/keys/%E0%A4%A', '/v1/roles/%']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-access-token': t.adminToken } });
      await expect400(res, 'url', /percent-encoded/);
    }
    await expect400(await t.call('GET', '/v1/keys?limit=1&limit=2'), 'query.limit', /number/);
  });

  it('over-long ids and strings', async () => {
    await expect400(await t.call('GET', `/v1/keys/${'k'.repeat(65)}`), 'params.key_id');
    await expect400(await t.call('POST', '/v1/keys', { body: { name: 'n'.repeat(101) } }), 'body.name');
  });

  it('an oversize body is 413 payload-too-large', async () => {
    const res = await t.call('POST', '/v1/roles', { body: { name: 'big', permissions: [], description: 'x'.repeat(1_100_000) } });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ type: 'urn:fos:error:payload-too-large', status: 413, title: 'Payload Too Large' });
    expect(res.json().detail).toMatch(TRACE);
  });

  it('an empty application/json body counts as no body', async () => {
    const other = (await t.call('POST', '/v1/keys', { body: { name: 'bodyless' } })).json();
    const disable = await raw('POST', `/v1/keys/${other.id}/disable`, '');
    expect(disable.statusCode, disable.body).toBe(200);
    expect(disable.json().state).toBe('DISABLED');
    expect((await raw('DELETE', `/v1/keys/${other.id}`, '')).statusCode).toBe(204);
    await expect400(await raw('POST', '/v1/roles', ''), 'body', /object/);
  });

  it('a body that is not JSON is 415', async () => {
    const res = await raw('POST', '/v1/keys', 'name=x', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json().type).toBe('urn:fos:error:unsupported-media-type');
  });

  it('odd but well-formed input is never a 500', async () => {
    const inputs: Array<[string, string, unknown]> = [
      ['POST', '/v1/keys', { name: 'nul\u0000byte' }],
      ['POST', '/v1/roles', { name: 'nul\u0000', permissions: [] }],
      ['GET', '/v1/keys/%00', undefined],
      ['GET', '/v1/roles/%E2%9C%93', undefined],
      ['GET', '/v1/keys?page=99999999999999', undefined],
      ['GET', '/v1/keys?page=1e400', undefined],
      ['PUT', `/v1/keys/${keyId}/roles`, { role_ids: ['\u0000'] }],
    ];
    for (const [method, url, body] of inputs) {
      const res = await t.call(method, url, { body });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
    }
    // Unusual but valid text is stored as given (then removed, so the counts stay as they were).
    const ok = await t.call('POST', '/v1/keys', { body: { name: 'ok', description: 'emoji 📦 and \u202e bidi' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().description).toBe('emoji 📦 and \u202e bidi');
    await t.db.prisma.apiKey.delete({ where: { id: ok.json().id } });
  });
});

describe('support references', () => {
  it('are unique per response and appear in the JSON log line of that request', async () => {
    const responses = [
      await t.call('GET', '/v1/keys/nope'),
      await t.call('POST', '/v1/keys', { body: { nope: 1 } }),
      await t.call('GET', '/v1/keys', { token: null }),
      await raw('POST', '/v1/roles', '{'),
      await t.call('GET', '/v1/roles/nope'),
    ];
    const refs = responses.map((res) => {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      const body = res.json();
      const ref = TRACE.exec(body.detail)?.[1];
      expect(ref, body.detail).toBeDefined();
      expect(body.trace_id).toBe(ref);
      expect(res.headers['x-trace-id']).toBe(ref);
      return ref!;
    });
    expect(new Set(refs).size).toBe(refs.length);

    const logged = lines.map((l) => JSON.parse(l) as { trace_id?: string; res?: { statusCode: number }; req?: { url: string } });
    for (const [i, ref] of refs.entries()) {
      const mine = logged.filter((l) => l.trace_id === ref);
      expect(mine.length, `log lines for ${ref}`).toBeGreaterThan(0);
      expect(mine.some((l) => l.res?.statusCode === responses[i].statusCode)).toBe(true);
    }
    // The token itself is never logged.
    expect(lines.join('\n')).not.toContain(t.adminToken);
  });
});

describe('request logs', () => {
  it('name the calling key (id and name), never its token', async () => {
    const res = await t.call('GET', '/v1/me');
    const ref = res.headers['x-trace-id'] as string;
    const me = res.json() as { key_id: string; key_name: string };
    const done = lines
      .map((l) => JSON.parse(l) as { trace_id?: string; key_id?: string; key_name?: string; res?: unknown })
      .find((l) => l.trace_id === ref && l.res);
    expect(done).toMatchObject({ key_id: me.key_id, key_name: me.key_name });
    expect(lines.join('\n')).not.toContain(t.adminToken);
  });
});
