import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';

// Memory that comes back when the load stops (issue 36 item 5). V8 collects garbage only when
// the program allocates, and Node gives it no idle time: a server that goes quiet after a burst
// keeps the garbage of its last requests and the heap that grew to hold it (the SQLite server:
// 173 MB idle after start, 502 MB under sustained load, and still 502 MB idle; heap, not SQLite's
// caches nor libSQL's statements: two full collections when idle brought it below the start).
// So once the server has answered requests and then none for IDLE_MS, it runs two full
// collections (the second returns the pages the first emptied), once per quiet spell, and
// `release` (serve.ts: SQLite's page cache, up to 32 MiB of native memory filled by the load and
// read back from the OS's file cache when the work resumes). glibc's malloc returns to the OS only
// the top of the main thread's heap: slots of the cache freed between live allocations stay in the
// process, free, and the next load reuses them (docs/performance.md, "Memory": measured with
// malloc_info; under jemalloc, which gives free pages back, the same run ended below its start).

const IDLE_MS = 10_000;
const TICK_MS = 2_500;

/** The engine's collector without --expose-gc on the command line (a flag set at run time). */
function collector(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

/** Registers the request counter (before listen) and starts the quiet-spell check; returns its stop. */
export function startIdleCollector(app: FastifyInstance, release?: () => Promise<unknown>, idleMs = IDLE_MS): () => void {
  const gc = collector();
  let answered = 0;
  app.addHook('onResponse', (_request, _reply, done) => {
    answered++;
    done(); // a hook written with `done`: no promise per request
  });
  if (!gc) return () => {};
  let seen = 0;
  let quietSince = Date.now();
  let dirty = false;
  const timer = setInterval(() => {
    if (answered !== seen) {
      seen = answered;
      quietSince = Date.now();
      dirty = true;
    } else if (dirty && Date.now() - quietSince >= idleMs) {
      dirty = false;
      release?.().catch(() => undefined);
      gc();
      setTimeout(gc, 1000).unref();
    }
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
