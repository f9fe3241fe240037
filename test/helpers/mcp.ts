// The agent-tool endpoint over a real listener, driven by the MCP SDK's own client. The app is
// built here rather than with testApp() so a test-only route (a body of a chosen size, to prove
// the 1 MiB limit) can be added before ready. Rate counters use one window for the whole file,
// so counts cannot reset at a minute boundary mid-test.
//
//   const m = await mcpTestApp();
//   const client = await m.connect(m.admin.token);
//   const r = await m.call(client, 'execute_svc_operation', { operation_key: 'GET /v1/me' });
//   afterAll(() => m.close());

import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildApp } from '../../src/server/app.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { createKey } from '../../src/domain/keys/keys.js';
import { createRole } from '../../src/domain/keys/roles.js';
import type { Permission } from '../../src/contract/permissions.js';
import type { Hit, RateLimitStore } from '../../src/server/rate-limit/stores.js';
import { freshDb } from './db.js';

class OneWindowStore implements RateLimitStore {
  readonly name = 'one-window';
  private counts = new Map<string, number>();
  async hit(keyId: string, now: number): Promise<Hit> {
    const count = (this.counts.get(keyId) ?? 0) + 1;
    this.counts.set(keyId, count);
    return { count, resetAt: now + 30_000 };
  }
  async close() {}
}

export type ToolResult = CallToolResult & { structuredContent?: any };

export const textOf = (r: ToolResult) => (r.content[0] as { text: string }).text;

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

let counter = 0;

export async function mcpTestApp() {
  const { db, cleanup } = await freshDb();
  const boot = await bootstrapIfEmpty(db);
  if (!boot) throw new Error('bootstrap did not run on a fresh database');
  const teamId = boot.teamId;
  const app: FastifyInstance = await buildApp({
    db,
    config: { logger: false, rateLimitStore: new OneWindowStore(), oauthRateLimit: false },
  });
  app.get(
    '/v1/test/big',
    {
      config: { permission: 'READ_PRODUCTS' },
      schema: {
        operationId: 'getBigTestPayload',
        tags: ['Test'],
        summary: 'Test-only payload of a chosen size',
        querystring: Type.Object({ size: Type.Integer({ minimum: 0 }) }),
      },
    },
    async (request) => ({ data: 'x'.repeat((request.query as { size: number }).size) }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`);
  const clients: Client[] = [];

  /** ADMIN key by default; MEMBER with one role holding `permissions` when given. Tier 4 unless told. */
  async function key(opts: { permissions?: Permission[]; tier?: number } = {}) {
    const roleIds: string[] = [];
    if (opts.permissions) {
      roleIds.push((await createRole(db, teamId, { name: `mcp-role-${++counter}`, permissions: opts.permissions })).id);
    }
    const k = await createKey(
      db,
      teamId,
      {
        name: `mcp key ${++counter}`,
        power_role: opts.permissions ? 'MEMBER' : 'ADMIN',
        role_ids: roleIds,
        rate_tier: opts.tier ?? 4,
      },
      null,
    );
    return { id: k.id, token: k.token };
  }

  return {
    app,
    db,
    teamId,
    mcpUrl,
    key,
    call,
    textOf,
    admin: await key(),
    async connect(token: string | null): Promise<Client> {
      const client = new Client({ name: 'fos-test-agent', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(mcpUrl, {
        requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    /** A raw JSON-RPC POST to /mcp, to look at HTTP status and headers. */
    rpc(token: string | null, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
      return fetch(mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await app.close();
      await db.close();
      await cleanup();
    },
  };
}

export type McpTestApp = Awaited<ReturnType<typeof mcpTestApp>>;
