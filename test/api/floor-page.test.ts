import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { person } from '../helpers/oauth.js';
import * as teams from '../../src/domain/teams/teams.js';

// The /floor page's server side (issue 28 item 6): its static files with their headers, and its
// sign-in: a user account's email and password give a token bound to <origin>/floor that works on
// the API (within what the person holds), not at /mcp; refresh rotates it; sign-out ends it.
// The page itself is driven in Chromium by test/e2e/floor-browser.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const signIn = (body: Record<string, unknown>) => t.call('POST', '/floor/session', { token: null, body });

describe('the /floor page', () => {
  it('is served with a strict CSP, as are its scripts; nothing else under /floor is', async () => {
    const page = await t.call('GET', '/floor', { token: null });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe|https?:/);
    expect(page.body).toContain('<script type="module" src="/floor/app.js">');
    for (const asset of ['app.js', 'api.js', 'ui.js', 'pick.js', 'pack.js', 'scan.js', 'floor.css']) {
      const res = await t.call('GET', `/floor/${asset}`, { token: null });
      expect(res.statusCode, asset).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await t.call('GET', '/floor/secrets.json', { token: null })).statusCode).toBe(404);
    expect((await t.call('GET', '/floor/..%2Fpackage.json', { token: null })).statusCode).toBe(404);
  });
});

describe('signing in on /floor', () => {
  it('gives a token for the API within what the person holds, not for /mcp; refresh rotates; sign-out ends it', async () => {
    const picker = await person(t.db, t.teamId, ['READ_FULFILLMENTS', 'WRITE_FULFILLMENTS']);
    const wrong = await signIn({ email: picker.email, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().detail).toMatch(/Wrong email or password/);
    expect((await signIn({ email: picker.email, password: picker.password, extra: 1 })).statusCode).toBe(400);

    const res = await signIn({ email: picker.email.toUpperCase(), password: picker.password });
    expect(res.statusCode).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ token_type: 'Bearer', user: { email: picker.email }, team: { id: t.teamId } });
    const as = (token: string) => ({ token });
    const sessions = await t.call('GET', '/v1/ops/picking-sessions', as(s.access_token));
    expect(sessions.statusCode).toBe(200);
    expect(sessions.headers['x-ratelimit-limit']).toBe('120');
    // Bounded by the person's own permissions: no products for a picker.
    expect((await t.call('GET', '/v1/ops/products', as(s.access_token))).statusCode).toBe(403);
    const mcp = await t.call('POST', '/mcp', {
      token: null,
      headers: { authorization: `Bearer ${s.access_token}`, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.statusCode).toBe(401);

    // Listed with the team's connections, so an admin can end a lost handheld's sign-in.
    const listed = await t.call('GET', '/v1/mcp-connections');
    expect(listed.json().data.some((c: any) => c.client_name === 'fos floor page' && c.user_email === picker.email)).toBe(true);

    const refreshed = await t.call('POST', '/floor/session/refresh', { token: null, body: { refresh_token: s.refresh_token } });
    expect(refreshed.statusCode).toBe(200);
    const again = await t.call('POST', '/floor/session/refresh', { token: null, body: { refresh_token: s.refresh_token } });
    expect(again.statusCode).toBe(401);
    // A replayed refresh token ends the whole sign-in (as for agent connections).
    expect((await t.call('GET', '/v1/ops/picking-sessions', as(refreshed.json().access_token))).statusCode).toBe(401);

    const s2 = (await signIn({ email: picker.email, password: picker.password })).json();
    expect((await t.call('DELETE', '/floor/session', as(s2.access_token))).statusCode).toBe(204);
    expect((await t.call('GET', '/v1/ops/picking-sessions', as(s2.access_token))).statusCode).toBe(401);
    // An API key is not a floor sign-in.
    expect((await t.call('DELETE', '/floor/session')).statusCode).toBe(403);
  });

  it('asks a person in several fulfiller teams which one, and refuses one in none', async () => {
    const p = await person(t.db, t.teamId, ['READ_FULFILLMENTS']);
    const other = await teams.createTeam(t.db, { name: 'Second DC', kind: 'FULFILLER', measurement_system: 'METRIC' });
    await t.db.prisma.userMembership.create({ data: { user_id: p.id, team_id: other.id, power_role: 'ADMIN' } });
    const choose = await signIn({ email: p.email, password: p.password });
    expect(choose.statusCode).toBe(409);
    expect(
      choose
        .json()
        .teams.map((x: any) => x.team_name)
        .sort(),
    ).toEqual(['Second DC', expect.any(String)].sort());
    const chosen = await signIn({ email: p.email, password: p.password, team_id: other.id });
    expect(chosen.statusCode).toBe(201);
    expect(chosen.json().team.name).toBe('Second DC');

    const merchant = await t.merchant();
    const shopper = await person(t.db, merchant.teamId);
    expect((await signIn({ email: shopper.email, password: shopper.password })).statusCode).toBe(403);
  });
});
