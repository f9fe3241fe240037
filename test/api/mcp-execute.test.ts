import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, mcpTestApp, textOf, type McpTestApp } from '../helpers/mcp.js';

// execute_svc_operation: runs operations with the caller's key; writes need confirm_write.

let m: McpTestApp;
beforeAll(async () => {
  m = await mcpTestApp();
});
afterAll(() => m?.close());

describe('execute_svc_operation', () => {
  it("runs a read with the caller's key", async () => {
    const client = await m.connect(m.admin.token);
    const r = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/me' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      status: 200,
      body: { key_id: m.admin.id, team_id: m.teamId, power_role: 'ADMIN', rate_tier: 4 },
    });
    expect(r.structuredContent.trace_id).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
  });

  it('refuses a write without confirm_write true, runs it with confirm_write true', async () => {
    const client = await m.connect(m.admin.token);
    const body = { name: 'agent-made role', permissions: ['READ_ORDERS'] };
    for (const confirm of [undefined, false]) {
      const r = await call(client, 'execute_svc_operation', {
        operation_key: 'POST /v1/roles',
        body,
        ...(confirm === undefined ? {} : { confirm_write: confirm }),
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/retry with confirm_write true after review/);
    }
    expect(await m.db.prisma.role.count({ where: { name: body.name } })).toBe(0);

    const r = await call(client, 'execute_svc_operation', { operation_key: 'POST /v1/roles', body, confirm_write: true });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: 201, body: { name: body.name, team_id: m.teamId, permissions: ['READ_ORDERS'] } });
    const row = await m.db.prisma.role.findUniqueOrThrow({ where: { id: r.structuredContent.body.id } });
    expect(row.team_id).toBe(m.teamId);

    // Path parameters fill the template; a missing one is refused before any request.
    const got = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/roles/{role_id}', path_params: { role_id: row.id } });
    expect(got.structuredContent).toMatchObject({ status: 200, body: { id: row.id, name: body.name } });
    const missing = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/roles/{role_id}' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/missing path_params: role_id/);
    const del = await call(client, 'execute_svc_operation', {
      operation_key: 'DELETE /v1/roles/{role_id}',
      path_params: { role_id: row.id },
    });
    expect(textOf(del)).toMatch(/retry with confirm_write true after review/);
    expect(await m.db.prisma.role.count({ where: { id: row.id } })).toBe(1);
  });

  it("applies the route's validation and returns its problem", async () => {
    const client = await m.connect(m.admin.token);
    const r = await call(client, 'execute_svc_operation', {
      operation_key: 'POST /v1/roles',
      body: { permissions: ['NOPE'] },
      confirm_write: true,
    });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.status).toBe(400);
    expect(r.structuredContent.body.type).toBe('urn:fos:error:validation-failed');
    expect(r.structuredContent.body.errors.map((e: { path: string }) => e.path)).toContain('body.name');
    const getBody = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/me', body: {} });
    expect(textOf(getBody)).toMatch(/takes no request body/);
  });

  it('refuses unknown operation keys, including /mcp itself', async () => {
    const client = await m.connect(m.admin.token);
    for (const operation_key of ['GET /v1/nothing-here', 'POST /mcp', 'GET /v1/swagger.json', '/v1/me']) {
      const r = await call(client, 'execute_svc_operation', { operation_key, confirm_write: true });
      expect(r.isError, operation_key).toBe(true);
      expect(textOf(r)).toMatch(/Use search_svc_operations .*describe_svc_operation/);
    }
  });

  it('gives a MEMBER key the 403 problem of an operation it lacks the permission for', async () => {
    const member = await m.key({ permissions: ['READ_PRODUCTS'] });
    const client = await m.connect(member.token);
    const before = await m.db.prisma.role.count();
    const r = await call(client, 'execute_svc_operation', {
      operation_key: 'POST /v1/roles',
      body: { name: 'not allowed', permissions: ['READ_PRODUCTS'] },
      confirm_write: true,
    });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.status).toBe(403);
    expect(r.structuredContent.body).toMatchObject({ type: 'urn:fos:error:forbidden', title: 'Forbidden', status: 403 });
    expect(r.structuredContent.body.detail).toMatch(/MANAGE_API_KEYS.*\(support reference: [0-9a-f]{16}\)$/);
    expect(await m.db.prisma.role.count()).toBe(before);
    // The permission it holds works.
    const ok = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/test/big', query: { size: 10 } });
    expect(ok.structuredContent).toEqual({ status: 200, body: { data: 'x'.repeat(10) }, trace_id: expect.any(String) });
  });

  it('refuses a response over 1 MiB and tells to paginate', async () => {
    const client = await m.connect(m.admin.token);
    const r = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/test/big', query: { size: 1024 * 1024 } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(textOf(r)).toMatch(/more than the agent-tool limit of 1 MiB .*pagination/);
    expect(textOf(r).length).toBeLessThan(1000);
    const fits = await call(client, 'execute_svc_operation', { operation_key: 'GET /v1/test/big', query: { size: 1024 * 1024 - 100 } });
    expect(fits.structuredContent.status).toBe(200);
  });
});

describe('JSON-RPC batches', () => {
  it("count every execute against the key's rate tier", async () => {
    const k = await m.key({ tier: 1 }); // 30 requests a minute
    const calls = Array.from({ length: 40 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'execute_svc_operation', arguments: { operation_key: 'GET /v1/me' } },
    }));
    const res = await fetch(m.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${k.token}`,
        'mcp-protocol-version': '2025-03-26',
      },
      body: JSON.stringify(calls),
    });
    expect(res.status).toBe(200);
    const replies = (await res.json()) as Array<{ result: { structuredContent: { status: number } } }>;
    const statuses = replies.map((r) => r.result.structuredContent.status);
    expect(statuses).toHaveLength(40);
    // The /mcp request itself is not counted; its 40 executes are hits 1..40 of 30.
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });
});
