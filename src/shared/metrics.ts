import type * as Prom from 'prom-client';

// The process's Prometheus metrics (issue 42; docs/serve.md "Health and metrics"). One registry
// per process: counters are bumped where things happen (db, domain, workers) and read by
// GET /metrics (src/server/metrics.ts), which adds what it measures at scrape time (the outbox
// queue). Names follow Prometheus conventions (base units, _total counters); docs/grafana-fos.json
// queries them and test/api/health-metrics.test.ts checks every one it queries is exported.
//
// Nothing exists until a server serves /metrics (fos serve --metrics-token): prom-client costs
// ~100 ms and ~12 MB to load, so it is imported then, and until then `metrics` is null and every
// count below is a null check.

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function build(p: typeof Prom) {
  const registry = new p.Registry();
  const registers = [registry];
  p.collectDefaultMetrics({ register: registry }); // CPU, memory, event loop lag, GC, handles
  return {
    prom: p,
    registry,
    httpDuration: new p.Histogram({
      name: 'fos_http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route pattern and status (its _count is the request count).',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: SECONDS,
      registers,
    }),
    rateLimitRejections: new p.Counter({
      name: 'fos_rate_limit_rejections_total',
      help: 'Requests refused with 429 by a rate limiter (per-key tiers, failed authentications, sign-ins), by route pattern.',
      labelNames: ['route'] as const,
      registers,
    }),
    dbQueryDuration: new p.Histogram({
      name: 'fos_db_query_duration_seconds',
      help: "Time of each database statement (Prisma's and the stores' prepared statements).",
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),
    txRetries: new p.Counter({
      name: 'fos_db_transaction_retries_total',
      help: 'Transactions re-run after losing a race, by reason (serialization, deadlock, busy, other).',
      labelNames: ['reason'] as const,
      registers,
    }),
    deadlocks: new p.Counter({
      name: 'fos_db_deadlocks_total',
      help: 'Transactions PostgreSQL aborted as deadlocked (40P01), retried or not.',
      registers,
    }),
    webhookFailures: new p.Counter({
      name: 'fos_webhook_delivery_failures_total',
      help: 'Failed webhook delivery attempts; final="true" when the delivery gave up (FAILED).',
      labelNames: ['final'] as const,
      registers,
    }),
    channelPushFailures: new p.Counter({
      name: 'fos_channel_push_failures_total',
      help: 'Failed pushes to connected shops, by kind (tracking, stock).',
      labelNames: ['kind'] as const,
      registers,
    }),
    labelPurchases: new p.Counter({
      name: 'fos_label_purchases_total',
      help: 'Carrier label purchases by carrier and outcome (bought, refused, unconfirmed).',
      labelNames: ['carrier', 'outcome'] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof build>;

/** The metrics, once enableMetrics() ran; null until then (nothing is counted). */
export let metrics: Metrics | null = null;

/** Loads prom-client and starts counting (src/server/metrics.ts, when a metrics token is set). */
export async function enableMetrics(): Promise<Metrics> {
  const p = await import('prom-client');
  return (metrics ??= build(p));
}

/** Records a statement's time from its start (performance.now()); callers check `metrics` first. */
export function observeQuery(startMs: number) {
  metrics?.dbQueryDuration.observe((performance.now() - startMs) / 1000);
}

/**
 * Counts a failed transaction attempt (src/db/tx.ts), classified there (retryCause): every
 * deadlock, and each attempt that is retried, by why (a caller's own retryable error: other).
 */
export function countTxRetry(cause: 'deadlock' | 'serialization' | 'busy' | 'domain', retried: boolean) {
  if (!metrics) return;
  if (cause === 'deadlock') metrics.deadlocks.inc();
  if (retried) metrics.txRetries.inc({ reason: cause === 'domain' ? 'other' : cause });
}

/** Counts a label purchase by its carrier and how it ended: bought, refused, or unconfirmed (503). */
export async function countLabelPurchase<T>(carrier: string, buy: () => Promise<T>): Promise<T> {
  if (!metrics) return buy();
  const m = metrics;
  try {
    const out = await buy();
    m.labelPurchases.inc({ carrier, outcome: 'bought' });
    return out;
  } catch (err) {
    const unavailable = (err as { kind?: unknown } | null)?.kind === 'unavailable';
    m.labelPurchases.inc({ carrier, outcome: unavailable ? 'unconfirmed' : 'refused' });
    throw err;
  }
}
