import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// synchronous = NORMAL syncs the write-ahead log only at checkpoints. SQLite runs them itself
// inside a commit once the log holds wal_autocheckpoint pages, and we ran one every second: on
// the server's one connection, which then stood still while the log was synced and copied into
// the database file (two fsyncs): ~0.3-0.5 ms a commit on average, a third of the time a
// fulfillment's request spent in SQLite (docs/performance.md, write path). Here a worker thread
// with its own connection does that every `everyMs` while the database is being written, and the
// server's connection only checkpoints if the log outgrows AUTOCHECKPOINT_PAGES in between (the
// worker stalled, or a burst).

/**
 * The server connection's own checkpoint threshold once the worker runs: ~200 MiB of log. It was
 * 10,000 pages (~40 MiB), which three 1,000-line receipts or purchase orders in a second reach on
 * a grown ledger (~3,500 pages each): the next commit, often a fulfillment's, then copied the log
 * itself and took ~100 ms more (docs/performance.md, "The wait behind a receipt").
 */
export const AUTOCHECKPOINT_PAGES = 50_000;

/** After a checkpoint lets the log start over, its file is cut back to this (a burst's log is not kept). */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface WalCheckpointer {
  close(): Promise<void>;
}

export interface LazyWalCheckpointer extends WalCheckpointer {
  /** Whether the thread is running now (tests). */
  running(): boolean;
  /** Ticks done, threads started and starts that failed, so far (tests wait on these, not on durations). */
  counts(): { ticks: number; starts: number; failedStarts: number };
}

interface ThreadData {
  libsql: string;
  file: string;
  everyMs: number;
  busyTimeoutMs: number;
}

/**
 * The thread: its own connection runs a PASSIVE checkpoint every `everyMs` (it syncs the log,
 * then copies it into the database file; it never waits for the server's connection), and one
 * last time when asked to close. Sent as source (an eval worker), so it runs the same from dist/
 * and from the TypeScript sources under test: it may use only what it requires itself.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- an eval worker has no import */
function checkpointerThread() {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { libsql, file, everyMs, busyTimeoutMs } = workerData as ThreadData;
  const Database = require(libsql) as typeof import('libsql');
  const db = new Database(file, { timeout: busyTimeoutMs });
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const run = () => {
    try {
      checkpoint.all();
    } catch {
      // busy or closing: the next tick tries again
    }
  };
  run(); // at once: it starts because something was just committed
  const timer = setInterval(run, everyMs);
  parentPort!.postMessage('ready');
  parentPort!.on('message', (m) => {
    if (m !== 'close') return;
    clearInterval(timer);
    run(); // what the last interval committed reaches the file before the server exits
    db.close();
    parentPort!.close();
  });
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** One checkpointer thread; resolves once its connection is open, or undefined if it could not start. */
async function startThread(file: string, everyMs: number, busyTimeoutMs: number): Promise<WalCheckpointer | undefined> {
  const workerData: ThreadData = { libsql: createRequire(import.meta.url).resolve('libsql'), file, everyMs, busyTimeoutMs };
  const worker = new Worker(`(${checkpointerThread.toString()})()`, {
    eval: true,
    workerData,
    // A timer and a statement: keep its heap small (the default would reserve far more).
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2, stackSizeMb: 1 },
  });
  worker.unref(); // never what keeps a process alive
  worker.on('error', () => undefined); // it exits: the server's own connection still checkpoints (above)
  const ready = await new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    worker.once('exit', () => resolve(false));
  });
  if (!ready) return undefined; // the next change of the log tries again
  let closed: Promise<void> | undefined;
  return {
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 2000);
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage('close');
      })),
  };
}

/** Seconds without a commit after which the thread is stopped (it starts again on the next). */
export const IDLE_STOP_TICKS = 30;

/**
 * The checkpointer, run while the database is being written: the thread (~15 MiB) starts when
 * the log file changes (its mtime, read every `everyMs` without blocking) and stops after
 * IDLE_STOP_TICKS quiet ticks, so an idle server carries none.
 */
export function startWalCheckpointer(
  file: string,
  everyMs: number,
  busyTimeoutMs: number,
  idleStopTicks = IDLE_STOP_TICKS,
): LazyWalCheckpointer {
  const wal = `${file}-wal`;
  const mtimeOf = () =>
    stat(wal).then(
      (s) => s.mtimeMs,
      () => 0,
    );
  // The log's state now, read before anything can commit: a first tick reading it later (its stat
  // waits for libuv's pool) took a commit made meanwhile as the state at start, and never started
  // the thread for it (test/unit/db.test.ts saw that on a busy machine).
  let last = (() => {
    try {
      return statSync(wal).mtimeMs;
    } catch {
      return 0;
    }
  })();
  let quiet = 0;
  let thread: Promise<WalCheckpointer | undefined> | undefined;
  let busy = false;
  let closed: Promise<void> | undefined;
  const counts = { ticks: 0, starts: 0, failedStarts: 0 };
  const tick = async () => {
    if (busy || closed) return;
    busy = true;
    try {
      const mtime = await mtimeOf();
      if (mtime !== last) {
        last = mtime;
        quiet = 0;
        if (!thread) {
          thread = startThread(file, everyMs, busyTimeoutMs);
          if (await thread) counts.starts++;
          else {
            thread = undefined;
            counts.failedStarts++;
          }
        }
      } else if (thread && ++quiet >= idleStopTicks) {
        const t = thread;
        thread = undefined;
        await (await t)?.close();
      }
    } finally {
      counts.ticks++;
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return {
    running: () => thread !== undefined,
    counts: () => ({ ...counts }),
    close: () =>
      (closed ??= (async () => {
        clearInterval(timer);
        while (busy) await new Promise((r) => setTimeout(r, 5)); // a tick starting or stopping the thread
        await (await thread)?.close();
      })()),
  };
}
