import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { connections } from '../../../domain/oauth/index.js';
import { KeyTierBody } from '../../../contract/access.js';
import {
  McpConnectionListQuery,
  McpConnectionListSchema,
  McpConnectionParams,
  McpConnectionSchema,
} from '../../../contract/mcp-connections.js';

// Agent connections of the caller's team (spec 5.3, "MCP Connections" under team settings),
// managed with the MCP-management permission. Disconnecting revokes the connection's tokens at
// once on every replica (they are checked on each request) and touches no person and no key.

const config = { permission: 'WRITE_MCP' } as const;
const tags = ['Access'];

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof McpConnectionListQuery> }>(
    '/v1/mcp-connections',
    {
      config,
      schema: {
        operationId: 'listMcpConnections',
        tags,
        summary: "List the team's agent (MCP) connections",
        description:
          'Connections made by people through the OAuth sign-in, newest first: client, connection name, person, ' +
          'permissions, status and last use. Never a token.',
        querystring: McpConnectionListQuery,
        response: { 200: McpConnectionListSchema },
      },
    },
    async (request) => connections.listConnections(app.db, request.principal.teamId, request.query),
  );

  app.get<{ Params: Static<typeof McpConnectionParams> }>(
    '/v1/mcp-connections/:mcp_connection_id',
    {
      config,
      schema: {
        operationId: 'getMcpConnection',
        tags,
        summary: 'Get one agent (MCP) connection',
        params: McpConnectionParams,
        response: { 200: McpConnectionSchema },
      },
    },
    async (request) => connections.getConnection(app.db, request.principal.teamId, request.params.mcp_connection_id),
  );

  app.delete<{ Params: Static<typeof McpConnectionParams> }>(
    '/v1/mcp-connections/:mcp_connection_id',
    {
      config,
      schema: {
        operationId: 'revokeMcpConnection',
        tags,
        summary: 'Disconnect an agent (MCP) connection',
        description: 'Revokes its access and refresh tokens at once. The person and every API key are untouched. Idempotent.',
        params: McpConnectionParams,
        response: { 200: McpConnectionSchema },
      },
    },
    async (request) => connections.revokeConnection(app.db, request.principal.teamId, request.params.mcp_connection_id),
  );

  app.put<{ Params: Static<typeof McpConnectionParams>; Body: Static<typeof KeyTierBody> }>(
    '/v1/mcp-connections/:mcp_connection_id/tier',
    {
      config,
      schema: {
        operationId: 'setMcpConnectionTier',
        tags,
        summary: 'Set the rate tier of an agent (MCP) connection',
        description:
          "The connection's own counter of operations per minute, as for keys (tier 1: 30). Only an ADMIN key may set a tier above 1.",
        params: McpConnectionParams,
        body: KeyTierBody,
        response: { 200: McpConnectionSchema },
      },
    },
    async (request) =>
      connections.setConnectionTier(
        app.db,
        request.principal.teamId,
        request.params.mcp_connection_id,
        request.body.tier,
        request.principal,
      ),
  );
}
