import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { tokenOf } from '../auth.js';
import { protectedResourceMetadataUrl } from '../oauth/metadata.js';
import { VERSION } from '../../version.js';
import { invalidArguments, TOOLS, type ToolContext } from './tools.js';

// The agent-tool endpoint (spec 4.11, 5.3): Streamable HTTP at /mcp, no version segment.
// Stateless: every POST gets its own McpServer and transport, answered with one JSON body, so
// replicas need no shared session state. auth.ts authenticates the Bearer token (an API key, or
// an agent connection's OAuth access token) before any of this runs.

const INSTRUCTIONS =
  'fos fulfillment operations API. Find an operation with search_svc_operations, read its inputs with ' +
  'describe_svc_operation, run it with execute_svc_operation. Writes (POST, PUT, PATCH, DELETE) need ' +
  'confirm_write: true after the user reviewed them. List operations are paged (page, limit).';

const byName = new Map(TOOLS.map((t) => [t.tool.name, t]));

function createServer(ctx: ToolContext): McpServer {
  const mcp = new McpServer({ name: 'fos', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  // The tools publish JSON Schema (TypeBox) directly, so they are served through the protocol-level handlers.
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => t.tool) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const def = byName.get(request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; call tools/list.`);
    const args = structuredClone(request.params.arguments ?? {});
    const errors = def.validate(args);
    if (errors) return invalidArguments(def.tool.name, errors);
    return def.run(args as never, ctx);
  });
  return mcp;
}

const jsonRpcError = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });

export default async function mcpRoutes(app: FastifyInstance) {
  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const server = createServer({
      app,
      catalog: app.agentCatalog(),
      principal: request.principal,
      token: tokenOf(request, true)!,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the raw response: carry over what auth.ts and the app set (rate-limit headers, trace id).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.setHeader('x-trace-id', String(request.id));
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, 'agent-tool request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(jsonRpcError(ErrorCode.InternalError, 'Internal error'));
      }
    }
  }

  const options = {
    // Only executes count against the caller's budget (each is its own in-process request).
    config: { bearer: true, permission: null, uncounted: true },
    schema: { hide: true },
    // Tells agent clients which scheme to send on a 401, and where to learn how to get a token
    // (RFC 9728 protected resource metadata, which names this server as authorization server).
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (reply.statusCode === 401) {
        reply.header('www-authenticate', `Bearer realm="fos", resource_metadata="${protectedResourceMetadataUrl(app.originOf(request))}"`);
      }
      return payload;
    },
  };
  app.post('/mcp', options, handle);
  app.delete('/mcp', options, handle);
  // Stateless: the server never sends messages outside a request's response, so there is no
  // standalone SSE stream to open (clients treat 405 as "none offered").
  app.get('/mcp', options, async (_request, reply) =>
    reply.code(405).header('allow', 'POST, DELETE').type('application/json')
      .send(jsonRpcError(-32000, 'Method not allowed: this stateless endpoint offers no SSE stream; POST JSON-RPC messages.')),
  );
}
