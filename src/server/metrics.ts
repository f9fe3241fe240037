import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findOutboxBacklog } from '../domain/webhooks/index.js';
import { enableMetrics, type Metrics } from '../shared/metrics.js';
import { sendProblem } from './problem.js';

// GET /metrics (issue 42; docs/serve.md "Health and metrics"): Prometheus text format, served only
// when a token is configured (fos serve --metrics-token / FOS_METRICS_TOKEN) and only to a
// scraper sending it as `Authorization: Bearer <token>`. Without a token there is no route (404)
// and no request is timed: the hook below is added only with it.

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Counts a request by its route pattern (never the raw URL: ids would make a series each). */
const observer = ({ httpDuration, rateLimitRejections }: Metrics) =>
  function observe(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    const url = request.routeOptions.url;
    const route = url ?? 'unmatched';
    // An unmatched request's method is whatever the client sent: kept to a known few.
    const method = url || METHODS.has(request.method) ? request.method : 'OTHER';
    const status = reply.statusCode;
    httpDuration.observe({ method, route, status }, reply.elapsedTime / 1000);
    if (status === 429) rateLimitRejections.inc({ route });
    done();
  };

/** The outbox's backlog, read from the database when scraped (every replica reports the same queue). */
function outboxGauges(app: FastifyInstance, { prom }: Metrics) {
  const own = new prom.Registry();
  const depth = new prom.Gauge({
    name: 'fos_outbox_pending',
    help: 'Outbox rows waiting: events not yet fanned out or pushed, webhook deliveries not yet made.',
    labelNames: ['queue'] as const,
    registers: [own],
  });
  const age = new prom.Gauge({
    name: 'fos_outbox_oldest_age_seconds',
    help: 'Age of the oldest waiting row of each outbox queue (0 when empty).',
    labelNames: ['queue'] as const,
    registers: [own],
  });
  const set = (queue: string, row: { count: number; oldest: Date | null }) => {
    depth.set({ queue }, row.count);
    age.set({ queue }, row.oldest ? Math.max(0, (Date.now() - row.oldest.getTime()) / 1000) : 0);
  };
  return async () => {
    for (const [queue, row] of Object.entries(await findOutboxBacklog(app.db.prisma))) set(queue, row);
    return own.metrics();
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export async function metricsRoutes(app: FastifyInstance, token: string | undefined) {
  if (!token) return;
  const metrics = await enableMetrics();
  app.addHook('onResponse', observer(metrics));
  const expected = digest(token);
  const outboxMetrics = outboxGauges(app, metrics);
  const { registry } = metrics;
  app.get('/metrics', { config: { public: true }, logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!m || !timingSafeEqual(digest(m[1]!), expected)) {
      reply.header('www-authenticate', 'Bearer realm="fos metrics"');
      return sendProblem(
        request,
        reply,
        'unauthorized',
        'Send the metrics token (fos serve --metrics-token) as Authorization: Bearer <token>.',
      );
    }
    // Outbox first: when its query fails, the process metrics still go out.
    const outbox = await outboxMetrics().catch((err: unknown) => {
      request.log.warn({ err }, 'outbox metrics failed');
      return '';
    });
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send((await registry.metrics()) + outbox);
  });
}
