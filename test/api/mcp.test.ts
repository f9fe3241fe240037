import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/domain/keys/token.js';
import { call, mcpTestApp, textOf, type McpTestApp } from '../helpers/mcp.js';

// The agent-tool endpoint: tools, search, describe, authentication and rate limits.
// Execution: mcp-execute.test.ts.

let m: McpTestApp;
beforeAll(async () => {
  m = await mcpTestApp();
});
afterAll(() => m?.close());

describe('tools', () => {
  it('lists exactly the three agent tools with JSON Schema inputs', async () => {
    const client = await m.connect(m.admin.token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['describe_svc_operation', 'execute_svc_operation', 'search_svc_operations']);
    const execute = tools.find((t) => t.name === 'execute_svc_operation')!;
    expect(execute.inputSchema.type).toBe('object');
    expect(Object.keys(execute.inputSchema.properties ?? {}).sort()).toEqual([
      'body',
      'confirm_write',
      'operation_key',
      'path_params',
      'query',
    ]);
    expect(execute.inputSchema.required).toEqual(['operation_key']);
    expect(client.getServerVersion()?.name).toBe('fos');
  });

  it('rejects invalid tool arguments as a tool error', async () => {
    const client = await m.connect(m.admin.token);
    const r = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/me', confirm_write: 'yes', extra: 1 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/confirm_write must be boolean/);
    expect(textOf(r)).toMatch(/extra is not a known input/);
  });
});

describe('search_svc_operations', () => {
  it('finds GET /v1/me by capability and by exact key', async () => {
    const client = await m.connect(m.admin.token);
    const r = await call(client, 'search_svc_operations', { query: 'describe the calling api key' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.results[0]).toEqual({
      operation_key: 'GET /v1/me',
      summary: 'Describe the calling API key',
      tag: 'Access',
      operation_id: 'getMe',
      required_permission: null,
      key_has_permission: true,
      confirm_write_required: false,
    });
    const exact = await call(client, 'search_svc_operations', { query: 'get /v1/me' });
    expect(exact.structuredContent.results[0].operation_key).toBe('GET /v1/me');
    expect(JSON.parse(textOf(exact))).toEqual(exact.structuredContent);
  });

  it('finds every registered operation by its operation id, and never /mcp or the swagger route', async () => {
    const doc = m.app.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([m, o]) => ({ key: `${m.toUpperCase()} ${path}`, id: o.operationId })),
    );
    expect(ops.map((o) => o.key)).toContain('GET /v1/me');
    expect(ops.map((o) => o.key)).toContain('GET /v1/test/big');
    const client = await m.connect(m.admin.token);
    // Exports stream unbounded NDJSON/CSV and are left out of the catalog: agents page the lists.
    for (const op of ops.filter((o) => o.id && !o.key.endsWith('/export'))) {
      const r = await call(client, 'search_svc_operations', { query: op.id!, limit: 50 });
      expect(
        r.structuredContent.results.map((x: { operation_key: string }) => x.operation_key),
        op.id,
      ).toContain(op.key);
    }
    for (const query of ['mcp', 'swagger', 'POST /mcp', '/v1/swagger.json']) {
      const r = await call(client, 'search_svc_operations', { query, limit: 50 });
      const keys = r.structuredContent.results.map((x: { operation_key: string }) => x.operation_key);
      expect(keys.filter((k: string) => / \/mcp$|swagger/.test(k))).toEqual([]);
    }
  });

  it('finds the key and role management and product operations by capability when they exist', async () => {
    const doc = m.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const has = (method: string, path: string) => Boolean(doc.paths[path]?.[method]);
    const client = await m.connect(m.admin.token);
    const top = async (query: string) =>
      (await call(client, 'search_svc_operations', { query, limit: 5 })).structuredContent.results.map(
        (x: { operation_key: string }) => x.operation_key,
      );
    const expectations: [string, string, string][] = [
      ['create api key', 'post', '/v1/keys'],
      ['list keys', 'get', '/v1/keys'],
      ['create role', 'post', '/v1/roles'],
      ['list products', 'get', '/v1/ops/products'],
      ['update product', 'patch', '/v1/ops/products/{product_id}'],
    ];
    for (const [query, method, path] of expectations) {
      if (has(method, path)) expect(await top(query), query).toContain(`${method.toUpperCase()} ${path}`);
    }
    // Roles are registered in this tree: the search reports their permission and write flag.
    expect(has('post', '/v1/roles')).toBe(true);
    const roles = (await call(client, 'search_svc_operations', { query: 'create role' })).structuredContent.results;
    expect(roles.find((x: { operation_key: string }) => x.operation_key === 'POST /v1/roles')).toMatchObject({
      required_permission: 'MANAGE_API_KEYS',
      confirm_write_required: true,
      tag: 'Access',
    });
  });

  it('does not match on a verb alone', async () => {
    const client = await m.connect(m.admin.token);
    const none = await call(client, 'search_svc_operations', { query: 'list zebras' });
    expect(none.structuredContent).toMatchObject({ total_matches: 0, results: [] });
    expect(none.structuredContent.hint).toMatch(/resource name/);
    const verbs = await call(client, 'search_svc_operations', { query: 'delete', limit: 50 });
    const keys = verbs.structuredContent.results.map((x: { operation_key: string }) => x.operation_key);
    expect(keys).toContain('DELETE /v1/roles/{role_id}');
    expect(keys[0]).toMatch(/^DELETE /);
  });

  it('reports which operations a MEMBER key may call', async () => {
    const member = await m.key({ permissions: ['READ_PRODUCTS'] });
    const client = await m.connect(member.token);
    const r = await call(client, 'search_svc_operations', { query: 'role' });
    const create = r.structuredContent.results.find((x: { operation_key: string }) => x.operation_key === 'POST /v1/roles');
    expect(create.key_has_permission).toBe(false);
    const big = await call(client, 'search_svc_operations', { query: 'GET /v1/test/big' });
    expect(big.structuredContent.results[0]).toMatchObject({ operation_key: 'GET /v1/test/big', key_has_permission: true });
  });
});

describe('describe_svc_operation', () => {
  it('returns path and query parameters, body, responses and referenced schemas', async () => {
    const client = await m.connect(m.admin.token);
    const one = (await call(client, 'describe_svc_operation', { operation_key: 'PATCH /v1/roles/{role_id}' })).structuredContent;
    expect(one).toMatchObject({
      operation_key: 'PATCH /v1/roles/{role_id}',
      method: 'PATCH',
      path: '/v1/roles/{role_id}',
      confirm_write_required: true,
    });
    expect(one.path_parameters).toEqual([expect.objectContaining({ name: 'role_id', required: true })]);
    expect(one.request_body).toMatchObject({ required: true, content_type: 'application/json' });
    expect(Object.keys(one.request_body.schema.properties)).toEqual(expect.arrayContaining(['name', 'permissions']));
    expect(one.request_body.schema.additionalProperties).toBe(false);
    expect(one.responses['200'].schema.properties.id).toBeDefined();
    expect(one.responses['404']).toMatchObject({
      content_type: 'application/problem+json',
      schema: { $ref: '#/components/schemas/Problem' },
    });
    expect(one.referenced_schemas.Problem.properties.detail).toBeDefined();
    expect(one.how_to_execute).toMatch(/confirm_write true/);

    const list = (await call(client, 'describe_svc_operation', { operation_key: 'GET /v1/roles' })).structuredContent;
    expect(list.request_body).toBeNull();
    const page = list.query_parameters.find((p: { name: string }) => p.name === 'page');
    expect(page).toMatchObject({ required: false, schema: { type: 'number', minimum: 0, multipleOf: 1 } });
    expect(list.referenced_schemas.PageMeta.properties.has_next_page).toEqual({ type: 'boolean' });

    const me = (await call(client, 'describe_svc_operation', { operation_key: 'GET /v1/me' })).structuredContent;
    expect(me.required_permission).toBeNull();
    expect(me.responses['200'].schema.properties.key_id).toEqual({ type: 'string' });
  });

  it('refuses an unknown key and points to search', async () => {
    const client = await m.connect(m.admin.token);
    const r = await call(client, 'describe_svc_operation', { operation_key: 'GET /v1/no-such-thing' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/Unknown operation key .*search_svc_operations/);
  });
});

describe('authentication and rate limits', () => {
  it('answers 401 problem+json without a valid Bearer key', async () => {
    const cases: [string, Record<string, string>][] = [
      ['none', {}],
      ['unknown', { authorization: `Bearer ${generateToken()}` }],
      ['malformed', { authorization: 'Bearer nope' }],
      ['not bearer', { authorization: `Basic ${m.admin.token}` }],
      ['x-access-token only', { 'x-access-token': m.admin.token }],
    ];
    for (const [label, headers] of cases) {
      const res = await m.rpc(null, 'tools/list', {}, headers);
      expect(res.status, label).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="fos", resource_metadata="${m.mcpUrl.origin}/.well-known/oauth-protected-resource/mcp"`,
      );
      const body = await res.json();
      expect(body).toMatchObject({ type: 'urn:fos:error:unauthorized', status: 401 });
      expect(body.detail).toMatch(/\(support reference: [0-9a-f]{16}\)$/);
    }
    await expect(m.connect(generateToken())).rejects.toThrow(/401/);
    await expect(m.connect(null)).rejects.toThrow(/401/);
  });

  it("counts executes (operations) against the key's tier, never the handshake, listing or search", async () => {
    const k = await m.key({ tier: 1 });
    for (let i = 0; i < 35; i++) {
      const listed = await m.rpc(k.token, 'tools/list');
      expect(listed.status).toBe(200);
      expect(listed.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const search = await m.rpc(k.token, 'tools/call', { name: 'search_svc_operations', arguments: { query: 'list orders' } });
    expect((await search.json()).result.isError).toBeFalsy();
    const first = await m.rpc(k.token, 'tools/call', { name: 'execute_svc_operation', arguments: { operation_key: 'GET /v1/me' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{16}$/);
    const msg = await first.json();
    expect(msg.result.structuredContent).toMatchObject({ status: 200, body: { key_id: k.id } });
    // The execute's own request spent the first of 30; the REST API shares the key's counter.
    const rest = await fetch(new URL('/v1/me', m.mcpUrl), { headers: { 'x-access-token': k.token } });
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('28');
    for (let i = 0; i < 28; i++) {
      const r = await m.rpc(k.token, 'tools/call', { name: 'execute_svc_operation', arguments: { operation_key: 'GET /v1/me' } });
      expect((await r.json()).result.structuredContent.status).toBe(200);
    }
    const limited = await m.rpc(k.token, 'tools/call', { name: 'execute_svc_operation', arguments: { operation_key: 'GET /v1/me' } });
    expect(limited.status).toBe(200); // the JSON-RPC exchange succeeds; the operation's 429 is the tool's result
    const result = (await limited.json()).result;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 429, body: { type: 'urn:fos:error:rate-limited' } });
    expect((await m.rpc(k.token, 'tools/list')).status).toBe(200);
  });

  it('offers no standalone SSE stream (stateless) and accepts DELETE', async () => {
    const get = await fetch(m.mcpUrl, { headers: { authorization: `Bearer ${m.admin.token}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE');
    const del = await fetch(m.mcpUrl, { method: 'DELETE', headers: { authorization: `Bearer ${m.admin.token}` } });
    expect(del.status).toBe(200);
  });
});
