import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, mcpTestApp, textOf, type McpTestApp } from '../helpers/mcp.js';
import { authorizeUrl, Browser, person, pkce, register, token } from '../helpers/oauth.js';
import { addUserToTeam, disableUser } from '../../src/domain/users/users.js';
import { buildApp } from '../../src/server/app.js';

// Agent connections over OAuth 2.1 (spec 5.3, issue 11), on SQLite and PostgreSQL: discovery,
// registration, the code flow with PKCE through the consent pages, tokens, and every refusal.
// The same flow in a real browser with the MCP SDK's OAuth client: test/e2e/mcp-oauth-browser.test.ts.

let m: McpTestApp;
let base: string;
const REDIRECT = 'http://127.0.0.1:9/callback';
beforeAll(async () => {
  m = await mcpTestApp();
  base = m.mcpUrl.origin;
});
afterAll(() => m?.close());

/** A person approves a new client with a preset; returns the tokens and the connection id. */
async function connect(who: { email: string; password: string }, choice: Parameters<Browser['approve']>[2] = {}) {
  const client = await register(base, REDIRECT);
  const { verifier, challenge } = pkce();
  const b = new Browser(base);
  const done = await b.approve(authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge }), who, choice);
  expect(done.status, done.html).toBe(303);
  const code = new URL(done.location!).searchParams.get('code')!;
  const t = await token(base, {
    grant_type: 'authorization_code',
    client_id: client.client_id,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    resource: `${base}/mcp`,
  });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  const list = await m.app.inject({ method: 'GET', url: '/v1/mcp-connections', headers: { 'x-access-token': m.admin.token } });
  const connectionId = list.json().data.find((c: { client_id: string }) => c.client_id === client.client_id).id as string;
  return { client, tokens: t.body, connectionId, browser: b };
}

async function agent(accessToken: string) {
  const client = new Client({ name: 'oauth-test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(m.mcpUrl, { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }),
  );
  return client;
}

describe('discovery and registration', () => {
  it('answers /mcp without a token with 401 naming the protected resource metadata', async () => {
    const res = await m.rpc(null, 'tools/list');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="fos", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });

  it('registers every client as public: no secret is issued or stored', async () => {
    const c = await register(base, REDIRECT, { token_endpoint_auth_method: 'client_secret_post' });
    expect(c.client_secret).toBeUndefined();
    expect(c.token_endpoint_auth_method).toBe('none');
    const bad = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"redirect_uris":',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('invalid_request');
  });
});

describe('redirect URIs of registered clients (issue 23 item 5)', () => {
  const attempt = (uri: string) =>
    fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'x', redirect_uris: [uri] }),
    });

  it('accepts https, http on loopback and reverse-domain private-use schemes; refuses the rest with invalid_client_metadata', async () => {
    for (const ok of [
      'https://app.example/cb',
      'http://127.0.0.1:9/cb',
      'http://[::1]:8080/cb',
      'http://localhost/cb',
      'com.example.app:/callback',
    ]) {
      expect((await attempt(ok)).status, ok).toBe(201);
    }
    for (const bad of [
      'http://evil.example/cb',
      'https://app.example/cb#frag',
      'http://127.0.0.1/cb#',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'myapp:/cb',
      'https://user:pw@app.example/cb',
      'not a url',
    ]) {
      const res = await attempt(bad);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error, bad).toBe('invalid_client_metadata');
    }
  });

  it("the consent page's CSP form-action names the client's scheme or origin, never *", async () => {
    const admin = await person(m.db, m.teamId);
    const client = await register(base, 'com.example.app:/callback');
    const b = new Browser(base);
    const start = await b.request(
      authorizeUrl(base, { clientId: client.client_id, redirectUri: 'com.example.app:/callback', challenge: pkce().challenge }),
    );
    expect(start.status).toBe(302);
    let page = await b.request(start.headers.get('location')!);
    const signed = await b.signIn(await page.text(), admin);
    page = await b.request(signed.headers.get('location')!);
    expect(await page.text()).toContain('name="request"');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/form-action 'self' com\.example\.app:(;|$)/);
    expect(csp).not.toContain('*');
  });
});

describe('the code flow', () => {
  it('connects with a preset; the client lists tools, reads, writes with confirm_write, and is refused outside its preset', async () => {
    const admin = await person(m.db, m.teamId);
    const { tokens, connectionId } = await connect(admin, { preset: 'READ_AND_OPERATE', name: 'Night shift agent' });
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(tokens.access_token).toMatch(/^fosat_/);
    expect(tokens.refresh_token).toMatch(/^fosrt_/);
    const client = await agent(tokens.access_token);
    expect((await client.listTools()).tools).toHaveLength(3);
    const me = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/me' });
    expect(me.structuredContent).toMatchObject({ status: 200, body: { team_id: m.teamId, key_id: connectionId, power_role: 'MEMBER' } });
    const read = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/ops/orders', query: { limit: 1 } });
    expect(read.structuredContent.status).toBe(200);
    const write = await call(client, 'execute_svc_operation', {
      operation_key: 'POST /v1/ops/totes',
      body: { name: 'agent tote' },
      confirm_write: true,
    });
    expect(write.structuredContent.status, textOf(write)).toBe(201);
    const refused = await call(client, 'execute_svc_operation', {
      operation_key: 'POST /v1/ops/products',
      body: { sku: 'X', name: 'X' },
      confirm_write: true,
    });
    expect(refused.structuredContent.status).toBe(403);
    const keys = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/keys' });
    expect(keys.structuredContent.status).toBe(403);
    await client.close();

    const listed = await m.app.inject({
      method: 'GET',
      url: `/v1/mcp-connections/${connectionId}`,
      headers: { 'x-access-token': m.admin.token },
    });
    expect(listed.json()).toMatchObject({
      name: 'Night shift agent',
      client_name: 'Test Agent',
      user_id: admin.id,
      preset: 'READ_AND_OPERATE',
      status: 'ACTIVE',
      rate_tier: 1,
    });
    expect(listed.json().permissions).toContain('WRITE_FULFILLMENTS');
    expect(listed.json().permissions).not.toContain('WRITE_PRODUCTS');
    expect(listed.json().last_used_at).not.toBeNull();
  });

  it('returns state, refuses plain PKCE, unknown redirect_uri, a wrong verifier and a reused code', async () => {
    const admin = await person(m.db, m.teamId);
    const client = await register(base, REDIRECT);
    const { verifier, challenge } = pkce();

    const unknownRedirect = await fetch(
      authorizeUrl(base, { clientId: client.client_id, redirectUri: 'http://evil.example/cb', challenge }),
      { redirect: 'manual' },
    );
    expect(unknownRedirect.status).toBe(400); // never redirected to an unregistered address
    expect(unknownRedirect.headers.get('location')).toBeNull();
    const plain = await fetch(authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge, method: 'plain' }), {
      redirect: 'manual',
    });
    expect(plain.status).toBe(302);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const otherResource = await fetch(
      authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge, resource: 'https://elsewhere.example/mcp' }),
      { redirect: 'manual' },
    );
    expect(new URL(otherResource.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');

    const done = await new Browser(base).approve(
      authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge, state: 'abc xyz' }),
      admin,
    );
    const back = new URL(done.location!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('abc xyz');
    const code = back.searchParams.get('code')!;
    const wrong = await token(base, {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: pkce().verifier,
      redirect_uri: REDIRECT,
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const first = await token(base, {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(first.status).toBe(200);
    const again = await token(base, {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A replayed code revokes what the first exchange got.
    expect((await m.rpc(first.body.access_token, 'tools/list')).status).toBe(401);
  });

  it('rotates refresh tokens; replaying a used one revokes the connection', async () => {
    const admin = await person(m.db, m.teamId);
    const { client, tokens, connectionId } = await connect(admin);
    const next = await token(base, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token });
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await m.rpc(next.body.access_token, 'tools/list')).status).toBe(200);
    const replay = await token(base, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await m.rpc(next.body.access_token, 'tools/list')).status).toBe(401);
    const c = await m.app.inject({
      method: 'GET',
      url: `/v1/mcp-connections/${connectionId}`,
      headers: { 'x-access-token': m.admin.token },
    });
    expect(c.json().status).toBe('REVOKED');
  });

  it('denying sends access_denied with the state and makes nothing', async () => {
    const admin = await person(m.db, m.teamId);
    const client = await register(base, REDIRECT);
    const b = new Browser(base);
    const start = await b.request(
      authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge: pkce().challenge, state: 's1' }),
    );
    let html = await (await b.request(start.headers.get('location')!)).text();
    const signed = await b.signIn(html, admin);
    html = await (await b.request(signed.headers.get('location')!)).text();
    const requestId = /name="request" value="([^"]+)"/.exec(html)![1];
    const denied = await b.request('/oauth/consent', { form: { csrf: Browser.csrf(html), request: requestId, action: 'deny' } });
    const to = new URL(denied.headers.get('location')!);
    expect(to.searchParams.get('error')).toBe('access_denied');
    expect(to.searchParams.get('state')).toBe('s1');
    const forged = await b.request('/oauth/consent', {
      form: { csrf: 'forged', request: requestId, action: 'approve', preset: 'READ_ONLY', name: 'x' },
    });
    expect(forged.status).toBe(403);
  });
});

describe('refusals', () => {
  it('refuses a person without Write MCP, and a wrong password', async () => {
    const reader = await person(m.db, m.teamId, ['READ_ORDERS']);
    const client = await register(base, REDIRECT);
    const b = new Browser(base);
    const start = await b.request(authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge: pkce().challenge }));
    const html = await (await b.request(start.headers.get('location')!)).text();
    const wrong = await b.signIn(html, { email: reader.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/Wrong email or password/);
    const done = await b.approve(
      authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge: pkce().challenge }),
      reader,
    );
    expect(done.status).toBe(403);
    expect(done.html).toMatch(/Write MCP/);
  });

  it('grants only operational permissions the person holds', async () => {
    const p = await person(m.db, m.teamId, ['WRITE_MCP', 'READ_ORDERS', 'MANAGE_API_KEYS']);
    const { tokens, connectionId } = await connect(p, {
      preset: 'CUSTOM',
      permissions: ['READ_ORDERS', 'READ_PRODUCTS', 'MANAGE_API_KEYS', 'WRITE_MCP'],
    });
    const c = await m.app.inject({
      method: 'GET',
      url: `/v1/mcp-connections/${connectionId}`,
      headers: { 'x-access-token': m.admin.token },
    });
    expect(c.json().granted_permissions).toEqual(['READ_ORDERS']);
    const client = await agent(tokens.access_token);
    expect((await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/keys' })).structuredContent.status).toBe(403);
    expect((await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/ops/products' })).structuredContent.status).toBe(403);
    expect((await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/ops/orders' })).structuredContent.status).toBe(200);
    // The person loses READ_ORDERS: the connection loses it at once.
    await addUserToTeam(m.db, p.id, m.teamId, { power_role: 'MEMBER', role_ids: [] });
    expect((await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/ops/orders' })).structuredContent.status).toBe(403);
    await client.close();
  });

  it('refuses expired, revoked and disabled-person tokens with 401, and connection tokens outside /mcp', async () => {
    const admin = await person(m.db, m.teamId);
    const a = await connect(admin);
    const rest = await m.app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-access-token': a.tokens.access_token } });
    expect(rest.statusCode).toBe(401);
    expect(rest.json().detail).toMatch(/only at the agent endpoint/);

    await m.db.prisma.oAuthToken.updateMany({
      where: { connection_id: a.connectionId, kind: 'ACCESS' },
      data: { expires_at: new Date(Date.now() - 1000) },
    });
    expect((await m.rpc(a.tokens.access_token, 'tools/list')).status).toBe(401);

    const b = await connect(admin);
    expect((await m.rpc(b.tokens.access_token, 'tools/list')).status).toBe(200);
    const del = await m.app.inject({
      method: 'DELETE',
      url: `/v1/mcp-connections/${b.connectionId}`,
      headers: { 'x-access-token': m.admin.token },
    });
    expect(del.json().status).toBe('REVOKED');
    expect((await m.rpc(b.tokens.access_token, 'tools/list')).status).toBe(401);
    expect(
      (await token(base, { grant_type: 'refresh_token', client_id: b.client.client_id, refresh_token: b.tokens.refresh_token })).status,
    ).toBe(400);
    // The admin key that disconnected it still works.
    expect((await m.rpc(m.admin.token, 'tools/list')).status).toBe(200);

    const c = await connect(admin);
    const revoke = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: c.client.client_id, token: c.tokens.refresh_token }),
    });
    expect(revoke.status).toBe(200);
    expect((await m.rpc(c.tokens.access_token, 'tools/list')).status).toBe(401);

    const d = await connect(admin);
    await disableUser(m.db, admin.id);
    expect((await m.rpc(d.tokens.access_token, 'tools/list')).status).toBe(401);
    const again = await new Browser(base)
      .approve(authorizeUrl(base, { clientId: d.client.client_id, redirectUri: REDIRECT, challenge: pkce().challenge }), admin)
      .catch((e: Error) => e);
    expect(String(again)).toMatch(/sign-in: 401/);
  });

  it('a disconnect on one replica refuses the token on another at once (connection tokens are never cached)', async () => {
    const other = await buildApp({ db: m.db, config: { logger: false, authCacheTtlMs: 60_000 } });
    try {
      const admin = await person(m.db, m.teamId);
      const a = await connect(admin);
      const rpc = (app: typeof other) =>
        app.inject({
          method: 'POST',
          url: '/mcp',
          payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          headers: {
            authorization: `Bearer ${a.tokens.access_token}`,
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
          },
        });
      expect((await rpc(other)).statusCode).toBe(200);
      await m.app.inject({ method: 'DELETE', url: `/v1/mcp-connections/${a.connectionId}`, headers: { 'x-access-token': m.admin.token } });
      expect((await rpc(other)).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('lists and revokes connections only with Write MCP', async () => {
    const k = await m.key({ permissions: ['READ_ORDERS'] });
    const res = await m.app.inject({ method: 'GET', url: '/v1/mcp-connections', headers: { 'x-access-token': k.token } });
    expect(res.statusCode).toBe(403);
    const missing = await m.app.inject({
      method: 'DELETE',
      url: '/v1/mcp-connections/0190aaaa-0000-7000-8000-000000000000',
      headers: { 'x-access-token': m.admin.token },
    });
    expect(missing.statusCode).toBe(404);
    // Tiers as for keys: above 1 only by an ADMIN key.
    const { connectionId } = await connect(await person(m.db, m.teamId));
    const manager = await m.key({ permissions: ['WRITE_MCP'] });
    const tier = (token: string, value: number) =>
      m.app.inject({
        method: 'PUT',
        url: `/v1/mcp-connections/${connectionId}/tier`,
        headers: { 'x-access-token': token },
        payload: { tier: value },
      });
    expect((await tier(manager.token, 2)).statusCode).toBe(403);
    expect((await tier(manager.token, 1)).statusCode).toBe(200);
    expect((await tier(m.admin.token, 3)).json()).toMatchObject({ id: connectionId, rate_tier: 3 });
  });
});

describe('limits: operations count, the handshake does not', () => {
  it('gives each connection its own tier-1 counter of 30 executes a minute', async () => {
    const admin = await person(m.db, m.teamId);
    const { tokens } = await connect(admin);
    const client = await agent(tokens.access_token);
    for (let i = 0; i < 40; i++) await client.listTools();
    await call(client, 'search_svc_operations', { query: 'list orders' });
    await call(client, 'describe_svc_operation', { operation_key: 'GET /v1/me' });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/me' })).structuredContent.status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    // The person's other connection and the API keys have counters of their own.
    const other = await connect(admin);
    const second = await agent(other.tokens.access_token);
    expect((await call(second, 'execute_svc_operation', { operation_key: 'GET /v1/me' })).structuredContent.status).toBe(200);
    await Promise.all([client.close(), second.close()]);
  });
});
