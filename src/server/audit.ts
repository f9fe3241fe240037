import type { FastifyInstance, FastifyRequest } from 'fastify';
import { transaction } from '../db/tx.js';
import { auditContext, newAuditContext, runAudited, type AuditContext } from '../domain/audit/index.js';
import { installAuditHook, recordResponseTarget } from '../domain/audit/index.js';
import { isInnerCall } from './auth.js';

// The audit log's side of the HTTP server (docs/audit.md): every write request (POST, PUT, PATCH,
// DELETE) runs in an audit context (src/domain/audit/context.ts) holding its actor, address,
// operation and target; the first write transaction it commits inserts its record. A successful
// write whose route wrote outside transaction() (so nothing was recorded) gets its record in a
// transaction of its own before the response leaves.

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The agent endpoint's own messages: the operations its executes make are recorded, each as itself. */
const UNAUDITED = /^\/mcp(\/|$)/;
const MAX_FALLBACK_BODY = 64 * 1024;

/** The target the route's path names: /v1/ops/orders/:order_id/cancel -> order, its id. */
function targetOf(url: string, params: unknown): AuditContext['target'] {
  const { type, param } = routeTargetOf(url);
  const id = param ? (params as Record<string, unknown> | undefined)?.[param] : undefined;
  return { type, id: typeof id === 'string' ? id : null };
}

// A route's target type and id parameter, worked out once per route (a bounded set of paths):
// the regular expressions were a top entry of a write request's own CPU.
const routeTargets = new Map<string, { type: string | null; param: string | null }>();
function routeTargetOf(url: string) {
  let found = routeTargets.get(url);
  if (!found) {
    const parts = url.split('/').filter((p) => p && p !== 'v1' && p !== 'ops' && p !== 'merchant');
    const p = parts.findIndex((s) => s.startsWith(':'));
    const noun = p > 0 ? parts[p - 1] : parts[parts.length - 1];
    const type = noun?.startsWith(':')
      ? null
      : (noun ?? '')
          .replace(/ies$/, 'y')
          .replace(/(ch|sh|x|ss)es$/, '$1') // label-batches -> label_batch
          .replace(/(?<!s)s$/, '')
          .replace(/-/g, '_') || null;
    routeTargets.set(url, (found = { type, param: p >= 0 ? parts[p].slice(1) : null }));
  }
  return found;
}

function actorOf(request: FastifyRequest): AuditContext['actor'] {
  const p = request.principal;
  if (!p) return undefined;
  if (p.connection) return { type: 'CONNECTION', id: p.connection.id, name: p.keyName, userId: p.connection.userId, teamId: p.teamId };
  return { type: 'KEY', id: p.keyId, name: p.keyName, teamId: p.teamId };
}

function parsed(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload.length > MAX_FALLBACK_BODY) return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

export function registerAudit(app: FastifyInstance): void {
  installAuditHook();
  // Opened first (before authentication) so that everything the request runs is inside it.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!WRITES.has(request.method) || UNAUDITED.test(request.url)) return done();
    const outer = auditContext(); // an agent execute's in-process call: the agent's address
    const fromAgent = outer && isInnerCall(request);
    const ua = request.headers['user-agent'];
    const ctx = newAuditContext(request.routeOptions.schema?.operationId ?? `${request.method} ${request.routeOptions.url ?? ''}`, {
      method: request.method,
      path: request.url.split('?')[0].slice(0, 300),
      ip: fromAgent ? outer.ip : request.ip,
      userAgent: fromAgent ? outer.userAgent : typeof ua === 'string' ? ua : undefined,
      traceId: request.id,
    });
    runAudited(ctx, done);
  });
  // Authenticated and validated: the handler's writes are the ones recorded.
  app.addHook('preHandler', (request, _reply, done) => {
    const ctx = auditContext();
    if (ctx && ctx.traceId === request.id) {
      ctx.actor ??= actorOf(request);
      ctx.target = { ...targetOf(request.routeOptions.url ?? '', request.params), ...ctx.target };
      const body = request.body;
      if (body && typeof body === 'object' && !Array.isArray(body)) ctx.fields = body as Record<string, unknown>;
      ctx.active = true;
    }
    done();
  });
  // Written with `done`: most writes committed their record already, and then nothing waits (no promise per request).
  app.addHook('onSend', (request, reply, payload, done) => {
    const ctx = auditContext();
    if (!ctx || ctx.traceId !== request.id || !ctx.active) return done(null, payload);
    if (reply.statusCode < 200 || reply.statusCode >= 300) return done(null, payload);
    if (!ctx.recorded) {
      transaction(app.db, async () => parsed(payload)).then(() => done(null, payload), done);
      return;
    }
    if (ctx.target.id || !ctx.eventId || ctx.eventTargetId) return done(null, payload);
    // A create whose transaction returned no id: its id (and human key) are the response's. When the
    // transaction's result named the created row, the INSERT already carried its id and nothing more is sent.
    recordResponseTarget(app.db, ctx, parsed(payload)).then(() => done(null, payload), done);
  });
}
