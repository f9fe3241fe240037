import type { Db } from '../../db/types.js';
import { recoverDeliveries } from '../../domain/channels/index.js';
import { pushStock } from '../../domain/channels/index.js';
import { DEFAULT_SYNC_INTERVAL_MS, syncDueShops } from '../../domain/channels/index.js';
import type { WorkerLog } from './outbox.js';
import { metrics } from '../../shared/metrics.js';

// Background work of connected shops (docs/sales-channels.md): stock pushes every few seconds
// (changes in between coalesce into one call per shop) and a periodic order/listing sync of each
// connection (default every 15 minutes), and deliveries a stopped process stored but never took
// in (RECEIVED past the stale window, deliveries.ts). Every replica may run it; a shop is worked on by one
// replica at a time (a lease on its connection row).

export interface ChannelWorkerOptions {
  /** Pause between passes (ms); also the stock debounce. Default 5000. */
  intervalMs?: number;
  /** How often each shop is synced (ms). Default 15 minutes. */
  syncIntervalMs?: number;
  allowPrivate?: boolean;
}

export function startChannelWorker(db: Db, log: WorkerLog, opts: ChannelWorkerOptions = {}) {
  const env = { allowPrivate: opts.allowPrivate };
  const intervalMs = opts.intervalMs ?? 5000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      const recovered = await recoverDeliveries(db, env);
      if (recovered) log.info({ recovered }, 'stored shop deliveries taken in after a restart');
      const stock = await pushStock(db, env);
      if (stock.pushed || stock.failed) log.debug({ stock }, 'stock pushed to shops');
      if (stock.failed) metrics?.channelPushFailures.inc({ kind: 'stock' }, stock.failed);
      const synced = await syncDueShops(db, env, opts.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS);
      if (synced) log.info({ synced }, 'shops synced');
    })()
      .catch((err) => log.error({ err }, 'channel pass failed'))
      .then(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
