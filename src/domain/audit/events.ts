import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { deleteAuditEventsBefore, findAuditPage, findTeamAuditEvent } from './store.js';

// Reading the audit log (GET /v1/audit-events) and keeping it to its retention.

export interface AuditFilter {
  actor_id?: string;
  target_type?: string;
  target_id?: string;
  action?: string;
  created_at_min?: string;
  created_at_max?: string;
}

// Newest first; each filter has its (team, filter, created_at, id) index (prisma/schema.prisma).
const ORDER = [{ created_at: 'desc' }, { id: 'desc' }];

interface Row {
  id: string;
  created_at: Date;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  user_id: string | null;
  ip: string | null;
  user_agent: string | null;
  action: string;
  method: string | null;
  path: string | null;
  target_type: string | null;
  target_id: string | null;
  target_key: string | null;
  changes: unknown;
  trace_id: string | null;
}

const present = (r: Row) => ({
  id: r.id,
  created_at: r.created_at.toISOString(),
  actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name, user_id: r.user_id },
  ip: r.ip,
  user_agent: r.user_agent,
  action: r.action,
  method: r.method,
  path: r.path,
  target: { type: r.target_type, id: r.target_id, key: r.target_key },
  changes: (r.changes ?? null) as Record<string, unknown> | null,
  trace_id: r.trace_id,
});

export async function listAuditEvents(db: Db, teamId: string, q: PageRequest & AuditFilter) {
  const created: Record<string, Date> = {};
  if (q.created_at_min) created.gte = new Date(q.created_at_min);
  if (q.created_at_max) created.lt = new Date(q.created_at_max);
  const where = {
    team_id: teamId,
    ...(q.actor_id ? { actor_id: q.actor_id } : {}),
    ...(q.target_type ? { target_type: q.target_type } : {}),
    ...(q.target_id ? { target_id: q.target_id } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(Object.keys(created).length ? { created_at: created } : {}),
  };
  const rows = (await findAuditPage(db.prisma, pageArgs(q, where, ORDER))) as Row[];
  const page = toPage(rows, q, undefined, ORDER);
  return { data: page.data.map(present), meta: page.meta };
}

export async function getAuditEvent(db: Db, teamId: string, id: string) {
  const row = (await findTeamAuditEvent(db.prisma, teamId, id)) as Row | null;
  if (!row) throw notFound('audit event', id);
  return present(row);
}

/** Deletes the events older than `days` days (the outbox worker calls it, fos serve --audit-retention-days). */
export async function pruneAuditEvents(db: Db, days: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000);
  return deleteAuditEventsBefore(db.prisma, before);
}
