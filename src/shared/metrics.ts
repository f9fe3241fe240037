import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

// The process's Prometheus metrics (issue 42; docs/serve.md "Health and metrics"). One registry
// per process: counters are bumped where things happen (db, domain, workers) and read by
// GET /metrics (src/server/metrics.ts), which adds what it measures at scrape time (the outbox
// queue). Names follow Prometheus conventions (base units, _total counters); docs/grafana-fos.json
// queries them and test/api/health-metrics.test.ts checks every one it queries is exported.

export const registry = new Registry();

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpDuration = new Histogram({
  name: 'fos_http_request_duration_seconds',
  help: 'HTTP requests answered, by method, route pattern and status (its _count is the request count).',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const rateLimitRejections = new Counter({
  name: 'fos_rate_limit_rejections_total',
  help: 'Requests refused with 429 by a rate limiter (per-key tiers, failed authentications, sign-ins), by route pattern.',
  labelNames: ['route'] as const,
  registers: [registry],
});

export const dbQueryDuration = new Histogram({
  name: 'fos_db_query_duration_seconds',
  help: 'Time of each database statement (Prisma queries and the stores’ prepared statements).',
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

export const txRetries = new Counter({
  name: 'fos_db_transaction_retries_total',
  help: 'Transactions re-run after losing a race, by reason (serialization, deadlock, busy, other).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const deadlocks = new Counter({
  name: 'fos_db_deadlocks_total',
  help: 'Transactions PostgreSQL aborted as deadlocked (40P01), retried or not.',
  registers: [registry],
});

export const webhookFailures = new Counter({
  name: 'fos_webhook_delivery_failures_total',
  help: 'Failed webhook delivery attempts; final="true" when the delivery gave up (FAILED).',
  labelNames: ['final'] as const,
  registers: [registry],
});

export const channelPushFailures = new Counter({
  name: 'fos_channel_push_failures_total',
  help: 'Failed pushes to connected shops, by kind (tracking, stock).',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const labelPurchases = new Counter({
  name: 'fos_label_purchases_total',
  help: 'Carrier label purchases by carrier and outcome (bought, refused, unconfirmed).',
  labelNames: ['carrier', 'outcome'] as const,
  registers: [registry],
});

/** On once a server serves /metrics: until then nothing is timed (no cost without a scraper). */
export const metricsOn = { value: false };

/** Starts what only a scraped process needs: Node's process metrics (CPU, memory, event loop lag, GC) and statement timing. */
export function enableMetrics() {
  if (metricsOn.value) return;
  metricsOn.value = true;
  collectDefaultMetrics({ register: registry });
}

/** Records a statement's time from its start (performance.now()), when metrics are on. */
export function observeQuery(startMs: number) {
  dbQueryDuration.observe((performance.now() - startMs) / 1000);
}

/** The codes and kinds along an error's cause chain (Prisma, driver adapter, driver). */
function codesOf(err: unknown): string[] {
  const out: string[] = [];
  for (let e = err as Record<string, unknown> | null, i = 0; e && typeof e === 'object' && i < 5; e = e.cause as typeof e, i++) {
    for (const k of ['code', 'originalCode', 'kind', 'extendedCode']) if (e[k] !== undefined) out.push(String(e[k]));
  }
  return out;
}

/** Counts a failed transaction attempt that is retried, by why, and every deadlock (src/db/tx.ts). */
export function countTxRetry(err: unknown, retried: boolean) {
  const codes = codesOf(err);
  const deadlock = codes.includes('40P01');
  if (deadlock) deadlocks.inc();
  if (!retried) return;
  const reason = deadlock
    ? 'deadlock'
    : codes.some((c) => c === '40001' || c === 'P2034' || c === 'TransactionWriteConflict')
      ? 'serialization'
      : codes.some((c) => /busy|^sqlite$|^SocketTimeout$/i.test(c))
        ? 'busy'
        : 'other';
  txRetries.inc({ reason });
}

/** Counts a label purchase by its carrier and how it ended: bought, refused, or unconfirmed (503). */
export async function countLabelPurchase<T>(carrier: string, buy: () => Promise<T>): Promise<T> {
  try {
    const out = await buy();
    labelPurchases.inc({ carrier, outcome: 'bought' });
    return out;
  } catch (err) {
    const unavailable = (err as { kind?: unknown } | null)?.kind === 'unavailable';
    labelPurchases.inc({ carrier, outcome: unavailable ? 'unconfirmed' : 'refused' });
    throw err;
  }
}
