import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../version.js';
import { invalidArguments, TOOLS, type ToolContext } from './tools.js';

// The MCP server of one /mcp request (plugin.ts loads this module on the first one).

const INSTRUCTIONS =
  'fos fulfillment operations API. Find an operation with search_svc_operations, read its inputs with ' +
  'describe_svc_operation, run it with execute_svc_operation. Writes (POST, PUT, PATCH, DELETE) need ' +
  'confirm_write: true after the user reviewed them. List operations are paged (page, limit).';

const byName = new Map(TOOLS.map((t) => [t.tool.name, t]));

export function createServer(ctx: ToolContext): McpServer {
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

/** Stateless: one JSON body per POST, no session id, no SSE stream. */
export const createTransport = () => new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
