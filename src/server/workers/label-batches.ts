import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.js';
import type { OutboundPolicy } from '../../domain/carrier-integrations/index.js';
import { outsideAudit } from '../../domain/audit/index.js';
import { runDueBatches } from '../../domain/label-batches/index.js';

// Works label batches (src/domain/label-batches/run.ts): a turn right after a batch is created
// (kick), and every few seconds once started, which resumes a batch a stopped process left
// RUNNING when its lease runs out. One turn at a time per process; replicas share batches by lease.

export interface LabelBatchRunner {
  kick(): void;
  start(intervalMs: number): void;
  stop(): Promise<void>;
  /** The turn in progress, if any (tests wait for it). */
  idle(): Promise<void>;
}

export function labelBatchRunner(db: Db, log: FastifyBaseLogger, policy: OutboundPolicy): LabelBatchRunner {
  let running: Promise<unknown> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const turn = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = runDueBatches(db, { policy })
      .then((n) => {
        if (n) log.info({ completed: n }, 'label batches completed');
      })
      .catch((err) => log.error({ err }, 'label batch turn failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          turn();
        }
      });
  };
  return {
    // A kick comes from the request that made the batch: its work is the batch's, not that request's (audit).
    kick: () => outsideAudit(turn),
    start(intervalMs) {
      timer = setInterval(turn, intervalMs);
      timer.unref();
      turn();
    },
    async stop() {
      if (timer) clearInterval(timer);
      again = false;
      await running;
    },
    async idle() {
      while (running) await running;
    },
  };
}
