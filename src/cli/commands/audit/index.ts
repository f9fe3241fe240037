import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

// `fos audit`: the team's audit log (GET /v1/audit-events, docs/audit.md; needs MANAGE_API_KEYS).

const contract = () => import('../../../contract/audit.js');

function auditList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await contract()).AuditEventListSchema),
    description: 'List audit events, newest first',
    path: () => '/audit-events',
    query: [
      { key: 'actor_id', flag: '--actor', arg: 'id', description: 'events of this key, connection or user id' },
      { key: 'target_type', arg: 'type', description: 'events on this kind of target (order, product, key, …)' },
      { key: 'target_id', flag: '--target', arg: 'id', description: 'events on this target id' },
      { key: 'action', arg: 'operation-id', description: 'events of this operation (e.g. cancelOrder)' },
      { key: 'created_at_min', flag: '--since', arg: 'time', description: 'at or after this ISO 8601 time' },
      { key: 'created_at_max', flag: '--until', arg: 'time', description: 'before this ISO 8601 time' },
    ],
    columns: ['id', 'created_at', 'actor.name', 'action', 'target.type', 'target.key', 'target.id', 'ip'],
    keep: ['created_at', 'actor.name', 'action', 'target.key'],
    examples: [
      'fos audit list',
      'fos audit list --action cancelOrder --since 2026-11-01T00:00:00Z',
      'fos audit list --target 0193… --json actor,changes',
    ],
  });
}

function auditShow(ctx: Context): Command {
  return getCommand(ctx, {
    name: 'show',
    output: response(async () => (await contract()).AuditEventSchema),
    description: 'Show one audit event (actor, address, target, changes)',
    args: ['<event-id>'],
    path: ([id]) => `/audit-events/${seg(id)}`,
    examples: ['fos audit show 0193…', 'fos audit show 0193… --json changes'],
  });
}

export default (ctx: Context) =>
  group('audit', 'Audit log of your team: who changed what (needs MANAGE_API_KEYS)', [auditList(ctx), auditShow(ctx)]);
