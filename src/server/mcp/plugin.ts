import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tokenOf } from '../auth.js';
import { protectedResourceMetadataUrl } from '../oauth/metadata.js';

// The MCP SDK, zod and the tools' validators (~30 MiB) load with the first /mcp request, not at start.
let loaded: Promise<typeof import('./server.js')> | undefined;
const mcpServer = () => (loaded ??= import('./server.js'));
// JSON-RPC error code -32603 (the SDK's ErrorCode.InternalError), without loading the SDK.
const INTERNAL_ERROR = -32603;

// The agent-tool endpoint (spec 4.11, 5.3): Streamable HTTP at /mcp, no version segment.
// Stateless: every POST gets its own McpServer and transport, answered with one JSON body, so
// replicas need no shared session state. auth.ts authenticates the Bearer token (an API key, or
// an agent connection's OAuth access token) before any of this runs.

const jsonRpcError = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });

export default async function mcpRoutes(app: FastifyInstance) {
  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const { createServer, createTransport } = await mcpServer();
    const server = createServer({
      app,
      catalog: app.agentCatalog(),
      principal: request.principal,
      token: tokenOf(request, true)!,
    });
    const transport = createTransport();
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
        reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(jsonRpcError(INTERNAL_ERROR, 'Internal error'));
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
    reply
      .code(405)
      .header('allow', 'POST, DELETE')
      .type('application/json')
      .send(jsonRpcError(-32000, 'Method not allowed: this stateless endpoint offers no SSE stream; POST JSON-RPC messages.')),
  );
}
