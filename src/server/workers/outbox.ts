import type { Db } from '../../db/types.js';
import { defaultSalesChannelAdapters, type SalesChannelAdapters } from '../../domain/events/index.js';
import { channelAdapters } from '../../domain/channels/index.js';
import { deliverDueWebhooks, fetchSender, processDueEvents, type WebhookSender } from '../../domain/webhooks/index.js';
import { VERSION } from '../../version.js';
import { metrics } from '../../shared/metrics.js';
import { pruneAuditEvents } from '../../domain/audit/index.js';

const AUDIT_PRUNE_EVERY_MS = 3_600_000;

// Background delivery of the transactional outbox: webhook fan-out and delivery, and tracking
// pushes to sales channels. Every replica may run one; rows are claimed by compare-and-set, so
// none is handled twice at once. Wired by `fos serve`:
//
//   const worker = startOutboxWorker(db, app.log, { intervalMs: 2000 });
//   …  await worker.stop();
//
// Tests drive it without timers: createOutboxWorker(db, log).runOnce(now).

export interface WorkerLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OutboxWorkerOptions {
  /** Pause between passes (ms). Default 2000. */
  intervalMs?: number;
  /** Timeout of one webhook POST (ms). Default 10000; must stay well below the claim lease (60 s). */
  timeoutMs?: number;
  /** Rows taken per pass, for events and for deliveries. Default 100. */
  batchSize?: number;
  /** Webhook POSTs in flight at once. Default 8. */
  concurrency?: number;
  /** Sales-channel adapters per shop type (default: Shopify/WooCommerce connections, skip MANUAL). */
  adapters?: SalesChannelAdapters;
  /** Deliver to loopback/private addresses too (fos serve --allow-private-webhooks). */
  allowPrivateWebhooks?: boolean;
  /** Audit events older than this many days are deleted, once an hour (0 or absent: kept). */
  auditRetentionDays?: number;
  /** Replaces the HTTP sender (tests). */
  send?: WebhookSender;
}

export interface PassStats {
  events: number;
  delivered: number;
  retrying: number;
  failed: number;
}

export interface OutboxWorker {
  /** One pass: process due events, then send due deliveries (including those just created). */
  runOnce(now?: Date): Promise<PassStats>;
}

export function createOutboxWorker(db: Db, log: WorkerLog, opts: OutboxWorkerOptions = {}): OutboxWorker {
  const batchSize = opts.batchSize ?? 100;
  const adapters = {
    ...defaultSalesChannelAdapters(),
    ...channelAdapters(db, { allowPrivate: opts.allowPrivateWebhooks }),
    ...opts.adapters,
  };
  const send = opts.send ?? fetchSender(opts.timeoutMs, `fos-webhooks/${VERSION}`, { allowPrivate: opts.allowPrivateWebhooks });
  let prunedAt = -Infinity;
  const prune = async (now: Date) => {
    const days = opts.auditRetentionDays;
    if (!days || now.getTime() - prunedAt < AUDIT_PRUNE_EVERY_MS) return;
    prunedAt = now.getTime();
    const removed = await pruneAuditEvents(db, days, now);
    if (removed) log.info({ removed, days }, 'audit events past their retention deleted');
  };
  return {
    async runOnce(now = new Date()) {
      await prune(now);
      const events = await processDueEvents(db, now, { batchSize, adapters });
      const deliveries = await deliverDueWebhooks(db, now, { batchSize, concurrency: opts.concurrency ?? 8, send });
      const stats = { events, ...deliveries };
      if (stats.events || stats.delivered || stats.retrying || stats.failed) log.debug({ outbox: stats }, 'outbox pass');
      if (stats.retrying) metrics?.webhookFailures.inc({ final: 'false' }, stats.retrying);
      if (stats.failed) metrics?.webhookFailures.inc({ final: 'true' }, stats.failed);
      if (stats.failed) log.warn({ failed: stats.failed }, 'webhook deliveries failed permanently');
      return stats;
    },
  };
}

/**
 * A pass that found work but less than a full batch waits this long (at most intervalMs) before
 * the next one. Without it, under a steady trickle of writes every pass found the one or two
 * events committed since the last and the worker ran a pass per event: in the floor bench (one
 * fulfillment at a time) about 30% of the server's CPU went to outbox passes (issue 36).
 */
export const PARTIAL_BATCH_PAUSE_MS = 250;

/**
 * Runs passes until stop(); stop() waits for the pass in progress. While a pass takes a full
 * batch, the next one starts at once (a backlog drains continuously, batch after batch); a pass
 * with less waits PARTIAL_BATCH_PAUSE_MS, so an event written while the worker is busy is taken
 * within that; only an idle pass waits intervalMs before looking again. The first pass starts at once.
 */
export function startOutboxWorker(db: Db, log: WorkerLog, opts: OutboxWorkerOptions = {}) {
  const worker = createOutboxWorker(db, log, opts);
  const intervalMs = opts.intervalMs ?? 2000;
  const batchSize = opts.batchSize ?? 100;
  const pauseAfter = (s: PassStats) => {
    const deliveries = s.delivered + s.retrying + s.failed;
    if (s.events >= batchSize || deliveries >= batchSize) return 0;
    return s.events + deliveries > 0 ? Math.min(PARTIAL_BATCH_PAUSE_MS, intervalMs) : intervalMs;
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  let beatMs = Date.now();
  let passes = 0;
  const tick = () => {
    beatMs = Date.now();
    running = worker
      .runOnce()
      .then(pauseAfter)
      .catch((err) => {
        log.error({ err }, 'outbox pass failed');
        return intervalMs;
      })
      .then((pauseMs) => {
        beatMs = Date.now();
        passes++;
        if (!stopped) schedule(pauseMs);
      });
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(tick, delayMs);
    timer.unref(); // never keeps the process alive on its own
  };
  schedule(0); // a backlog left by a previous run starts draining at once

  return {
    runOnce: worker.runOnce,
    /** For GET /readyz: stopped, or when a pass last started or ended (epoch ms); passes ended so far. */
    liveness: () => ({ stopped, beatMs, passes }),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
