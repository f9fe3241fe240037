import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { enumArgument } from '../../shared/flags.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, resourcePath, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

// `fos mcp-connections …`: agents people connected through the OAuth sign-in (docs/mcp.md).

const path = (id?: string, action?: string) => resourcePath('/mcp-connections', id, action);

export default (ctx: Context): Command =>
  group('mcp-connections', 'Agent (MCP) connections people approved (needs WRITE_MCP)', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/mcp-connections.js')).McpConnectionListSchema),
      description: "List the team's agent connections, newest first",
      path: () => path(),
      query: [
        { key: 'status', type: 'enum', values: ENUMS.mcp_connection_status, description: 'only connections in this state' },
        { key: 'user_id', flag: '--user', arg: 'id', description: 'connections this person approved' },
      ],
      columns: ['id', 'name', 'client_name', 'user_email', 'preset', 'status', 'last_used_at'],
      examples: ['fos mcp-connections list', 'fos mcp-connections list --status ACTIVE --json id,name,permissions'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../contract/mcp-connections.js')).McpConnectionSchema),
      description: 'Show one agent connection: its person, permissions and last use',
      args: ['<connection-id>'],
      path: ([id]) => path(id),
      examples: ['fos mcp-connections get 0193…'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/mcp-connections.js')).McpConnectionSchema),
      name: 'revoke',
      description: 'Disconnect an agent: its tokens stop working at once (the person and API keys are untouched)',
      method: 'DELETE',
      mode: 'action',
      args: ['<connection-id>'],
      path: ([id]) => path(id),
      confirm: (_, what) => `Disconnect agent connection ${what}? The agent must be connected again to work.`,
      lookup: { path: ([id]) => path(id), label: (c) => `${c.name} (${c.client_name}, ${c.user_email})` },
      done: ([id]) => `disconnected ${id}`,
      examples: ['fos mcp-connections revoke 0193… --yes'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/mcp-connections.js')).McpConnectionSchema),
      name: 'tier',
      description: "Set a connection's rate tier (operations per minute: 1=30, 2=120, 3=600, 4=3000)",
      method: 'PUT',
      mode: 'action',
      args: ['<connection-id>', enumArgument('<tier>', 'rate tier: 1=30, 2=120, 3=600, 4=3000 operations per 60 s', 'tier', ENUMS.tier)],
      path: ([id]) => path(id, 'tier'),
      transform: (_body, _opts, args) => ({ tier: Number(args[1]) }),
      examples: ['fos mcp-connections tier 0193… 2'],
    }),
  ]);
