import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.js';
import type { OutboundPolicy } from '../../domain/carrier-integrations/index.js';
import { recoverPurchases } from '../../domain/fulfillment/index.js';

// Settles carrier label purchases left open by a crash or a lost answer once their lease ran out
// (src/domain/fulfillment/carriers/purchases.ts): at start and every few seconds. Replicas take
// each purchase over with a compare-and-set, so they do not clash.

export function startPurchaseRecovery(
  db: Db,
  log: FastifyBaseLogger,
  policy: OutboundPolicy,
  intervalMs: number,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= recoverPurchases(db, policy, log)
      .then((n) => {
        if (n) log.info({ settled: n }, 'label purchases reconciled');
      })
      .catch((err) => log.error({ err }, 'label purchase recovery failed'))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
