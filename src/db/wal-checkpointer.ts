import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// synchronous = NORMAL syncs the write-ahead log only at checkpoints. SQLite runs them itself
// inside a commit once the log holds wal_autocheckpoint pages, and we ran one every second: on
// the server's one connection, which then stood still while the log was synced and copied into
// the database file (two fsyncs): ~0.3-0.5 ms a commit on average, a third of the time a
// fulfilment's request spent in SQLite (docs/performance.md, write path). Here a worker thread
// with its own connection does that every `everyMs`, and the server's connection only checkpoints
// if the log outgrows AUTOCHECKPOINT_PAGES in between (the worker stalled, or a burst).

/** The server connection's own checkpoint threshold once the worker runs: ~40 MiB of log. */
export const AUTOCHECKPOINT_PAGES = 10_000;

export interface WalCheckpointer {
  close(): Promise<void>;
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

/** Resolves once the thread has its connection open (or has failed: then the server's own checkpoints remain). */
export async function startWalCheckpointer(file: string, everyMs: number, busyTimeoutMs: number): Promise<WalCheckpointer> {
  const workerData: ThreadData = { libsql: createRequire(import.meta.url).resolve('libsql'), file, everyMs, busyTimeoutMs };
  const worker = new Worker(`(${checkpointerThread.toString()})()`, {
    eval: true,
    workerData,
    // A timer and a statement: keep its heap small (the default would reserve far more).
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2, stackSizeMb: 1 },
  });
  worker.unref(); // never what keeps a process alive
  worker.on('error', () => undefined); // the server's own connection still checkpoints (above)
  await new Promise<void>((resolve) => {
    worker.once('message', () => resolve());
    worker.once('exit', () => resolve());
  });
  let closed: Promise<void> | undefined;
  return {
    close: () => (closed ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 2000);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage('close');
    })),
  };
}
