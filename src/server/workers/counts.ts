import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.js';
import { foldFulfillmentOrderCounts } from '../../domain/fulfillment/index.js';

// PostgreSQL only: folds the fulfillment-order count deltas into the counts every few seconds
// (src/domain/fulfillment/counts.ts), so the list's total sums a few rows. Readers stay exact
// without it; the fold only keeps the delta table short. Every replica folds; they do not clash.

export function startCountFolder(db: Db, log: FastifyBaseLogger, intervalMs: number): { stop(): Promise<void> } {
  if (db.provider !== 'postgresql') return { stop: async () => {} };
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= foldFulfillmentOrderCounts(db)
      .catch((err) => log.error({ err }, 'folding fulfillment order counts failed'))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
