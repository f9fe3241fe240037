import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.js';
import { runDueStorage } from '../../domain/billing/index.js';
import { nowOf, type Clock } from '../../shared/clock.js';

// Daily storage (docs/billing.md "Storage"): every replica looks once a minute, and at start,
// for warehouse days that have ended in their own time zone and were not taken (missed days
// back-filled). What makes it exactly-once is the run row's unique key, not this timer.

export function startStorageBiller(db: Db, log: FastifyBaseLogger, opts: { clock?: Clock; intervalMs: number }) {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= runDueStorage(db, nowOf(opts.clock), (warehouse_id, err) =>
      log.error({ err, warehouse_id }, 'taking daily storage failed; retried next minute'),
    )
      .then((taken) => {
        for (const r of taken)
          log.info(
            { warehouse_id: r.warehouse_id, date: r.date, snapshots: r.run.snapshot_count, charges: r.run.charge_count },
            'daily storage taken',
          );
      })
      .catch((err) => log.error({ err }, 'taking daily storage failed'))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
