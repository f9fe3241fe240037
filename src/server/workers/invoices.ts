import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.js';
import { closeDuePeriods } from '../../domain/invoices/index.js';
import { nowOf, type Clock } from '../../shared/clock.js';

// The period close (docs/invoices.md): every replica runs it once a minute and at start; what
// makes it exactly-once is closeDuePeriods' compare-and-set, not this timer.

export function startInvoiceCloser(db: Db, log: FastifyBaseLogger, opts: { clock?: Clock; intervalMs: number }) {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= closeDuePeriods(db, nowOf(opts.clock))
      .then((made) => {
        for (const inv of made)
          log.info({ invoice_id: inv.id, period: `${inv.period_start}..${inv.period_end}` }, 'invoice draft generated');
      })
      .catch((err) => log.error({ err }, 'closing invoice periods failed'))
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
