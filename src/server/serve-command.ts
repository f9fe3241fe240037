import { setFlagsFromString } from 'node:v8';
import { pino } from 'pino';
import { startServer, type ServeOptions } from './serve.js';

/** The fields of a request log line that the pretty printer shows. */
interface PinoLine {
  trace_id?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: unknown;
  [key: string]: unknown;
}

export type LogFormat = 'auto' | 'pretty' | 'json';

/**
 * Logger options for `fos serve`: one JSON line per event when the output is piped (or with
 * `--log-format json`), for log shippers; on a terminal (or `--log-format pretty`) pino-pretty
 * prints one readable line each: time, level, [trace id], message, then a request's method, URL,
 * status and duration (request completed).
 */
export async function serveLogger(level: string, format: LogFormat = 'auto', out: NodeJS.WriteStream = process.stdout) {
  const fd = (out as { fd?: number }).fd ?? 1;
  // JSON lines go out asynchronously: lines logged while a write is in flight leave together in
  // the next one, instead of a blocking write() per line (~6% of a list page's CPU, docs/
  // performance.md "List pages as shipped"). Nothing waits for a buffer to fill, so a quiet
  // server's lines appear at once; pino flushes what is left synchronously on exit.
  if (format === 'json' || (format === 'auto' && !out.isTTY)) return { level, stream: pino.destination({ dest: fd, sync: false }) };
  const { build } = await import('pino-pretty');
  const stream = build({
    colorize: Boolean(out.isTTY) && !process.env.NO_COLOR,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,trace_id,req,res,responseTime',
    messageFormat: (log: PinoLine, key: string) => {
      const id = log.trace_id ? `[${log.trace_id}] ` : '';
      const req = log.req ? ` ${log.req.method} ${log.req.url}` : '';
      const res = log.res ? ` -> ${log.res.statusCode}` : '';
      const took = typeof log.responseTime === 'number' ? ` in ${log.responseTime.toFixed(1)} ms` : '';
      return `${id}${log[key]}${req}${res}${took}`;
    },
    singleLine: true,
    destination: fd,
    sync: true,
  });
  return { level, stream };
}

export type ServeCommandOptions = ServeOptions & {
  logLevel?: string;
  logFormat?: LogFormat;
  drainTimeout?: number;
  /** The demo on its own database: its key goes to the profile `demo`, removed again at stop. */
  demoProfile?: boolean;
};

// `fos serve`: start, announce, save the first-start key as a CLI profile (`local`, or `demo`),
// and shut down cleanly on SIGINT/SIGTERM.
export async function runServe(opts: ServeCommandOptions) {
  const server = await startServer({ ...opts, logger: await serveLogger(opts.logLevel ?? 'info', opts.logFormat) });
  // bin/fos.js kept V8's young generation from growing while the server booted; requests come
  // and go quickly, so under load it may grow again (V8's default factor): a smaller one cost
  // ~5-10% more CPU per request.
  setFlagsFromString('--semi-space-growth-factor=2');
  const err = process.stderr;
  // Signals are handled before anything is announced: whoever reads the URL may stop the server
  // at once, and must find it draining, not killed with its lock left behind.
  let stopping = false;
  let forget = () => {};
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const drainMs = (opts.drainTimeout ?? 10) * 1000;
    err.write(`fos serve: stopping (draining for at most ${drainMs / 1000} s)…\n`);
    // Whatever happens in the drain, the process ends shortly after its deadline.
    setTimeout(() => process.exit(1), drainMs + 5000).unref();
    try {
      await server.close({ drainMs });
    } catch (e) {
      err.write(`fos serve: stopping failed: ${(e as Error).message}\n`);
      process.exit(1);
    }
    try {
      forget();
    } catch (e) {
      err.write(`fos serve: could not remove the demo's CLI profile: ${(e as Error).message}\n`);
    }
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (server.movedAside) err.write(`--reset: the old database is kept as ${server.movedAside}; starting on a new one.\n`);
  if (server.bootstrap) forget = await announceKey(server.url, server.bootstrap, Boolean(opts.demoProfile));
  const origin = server.url.replace(/\/v1$/, '');
  if (opts.demo) {
    err.write(
      `Demo warehouse (--demo): products, stock and orders ready to fulfill, in ${opts.demoProfile ? 'its own database, made anew at every --demo start' : 'the database given'}: ${opts.db}\n`,
    );
    const floor = server.demo?.floor;
    if (floor) err.write(`Floor sign-in (shown once): ${origin}/floor  email ${floor.email}  password ${floor.password}\n`);
  }
  err.write(`Start page: ${origin}/ · floor page for scanners and phones: ${origin}/floor\n`);
  const metrics = opts.metricsToken ? ` · metrics: ${origin}/metrics (Authorization: Bearer <metrics token>)` : '';
  err.write(`Health: ${origin}/healthz · readiness: ${origin}/readyz${metrics}\n`);
  err.write(`fos serve listening on ${server.url} (${server.db.provider})\n`);
}

/**
 * Prints the first-start key once and saves it as a CLI profile; returns what to do at stop (the
 * demo's profile is removed then: its database starts over next time, so the key dies with it).
 */
async function announceKey(url: string, bootstrap: { token: string; teamName: string }, demo: boolean): Promise<() => void> {
  const err = process.stderr;
  const { token, teamName } = bootstrap;
  err.write(`\nFirst start: created fulfiller team "${teamName}" and an ADMIN key (rate tier 4: 3000 requests a minute).\n`);
  err.write(`API key (shown once): ${token}\n`);
  try {
    const { ConfigStore } = await import('../cli/config.js');
    const store = new ConfigStore();
    const saved = demo ? store.saveDemoProfile(url, token) : store.saveServerProfile(url, token);
    const how = saved.current
      ? 'and made it current: try `fos products list`'
      : `(the current profile stays as it is: use \`fos --profile ${saved.name} products list\` or \`fos profile use ${saved.name}\`)`;
    const until = demo ? ' until this server stops' : '';
    err.write(`Saved ${saved.replaced ? 'the new key in' : 'as'} the CLI profile "${saved.name}" for ${url}${until} ${how}.\n\n`);
    return demo ? () => void store.forgetProfileKey(saved.name, token) : () => {};
  } catch (e) {
    err.write(`Could not save the CLI profile: ${(e as Error).message}\n\n`);
    return () => {};
  }
}
