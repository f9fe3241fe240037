import { createRequire } from 'node:module';
import type { Agent } from 'undici';
import { allowedMs, currentScope, deadlineMs, type Operation } from './deadlines.js';
import { DestinationRefused, isAllowedHost, publicOnlyLookup } from './network.js';

// The one outbound HTTP layer: every call fos makes to a carrier (EasyPost, Shippo), a sales
// channel (Shopify, WooCommerce) or a merchant's webhook endpoint goes through send(). The SDKs
// are handed it as their transport (adapters.ts). It owns the deadlines: a connect timeout on its
// undici Agent, and a total deadline enforced by its own setTimeout, which aborts the request
// (undici destroys the socket) and rejects the caller at that moment whatever the SDK or the
// socket do — not an SDK option, not AbortSignal.timeout (a signal the SDK re-wraps can stop
// following its timer once collected: undici #3644, node #55428). Only what is safe is retried:
// a call marked retrySafe (a read; a write with an idempotency key the platform honours), on a
// connection failure, 429 or 502/503/504, within the same deadline. Every call's outcome is a
// structured log line with the request's trace id and goes to the hooks (metrics).

export interface OutboundRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: Buffer | string | null;
  /** easypost, shippo, shopify, woocommerce, webhook. */
  platform: string;
  /** Its deadline; the scope's operation (asOperation) when not given. */
  operation?: Operation;
  /** Loopback/private destinations allowed (fos serve --allow-private-network). */
  allowPrivate?: boolean;
  retrySafe?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type OutcomeKind = 'ok' | 'http-error' | 'timeout' | 'connect-timeout' | 'refused' | 'failed';

export interface Outcome {
  platform: string;
  operation: Operation;
  method: string;
  host: string;
  path: string;
  status: number | null;
  outcome: OutcomeKind;
  attempts: number;
  duration_ms: number;
  deadline_ms: number;
  trace_id: string | null;
}

/** The layer gave up: its deadline passed (or had already passed when the call was due). */
export class OutboundTimeout extends Error {
  override name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(
    readonly host: string,
    readonly deadline: number,
  ) {
    super(`${host} did not answer within ${deadline} ms`);
  }
}

const hooks = new Set<(o: Outcome) => void>();
let logger: { info(o: object, m: string): void; warn(o: object, m: string): void } | undefined;

/** Subscribes to every call's outcome (a metrics module counts them); returns the unsubscribe. */
export function onOutbound(fn: (o: Outcome) => void): () => void {
  hooks.add(fn);
  return () => hooks.delete(fn);
}

/** Where outcome lines are logged (the server's logger). */
export const setOutboundLogger = (l: typeof logger) => (logger = l);

function record(o: Outcome) {
  for (const h of hooks) {
    try {
      h(o);
    } catch {
      /* a broken hook must not break the call */
    }
  }
  const { trace_id, ...outbound } = o;
  if (o.outcome === 'ok') logger?.info({ trace_id, outbound }, 'outbound call');
  else logger?.warn({ trace_id, outbound }, `outbound call ${o.outcome}`);
}

// undici (~10 MiB) is loaded with the first call; one Agent per (policy, connect deadline).
const agents = new Map<string, Agent>();
function agentFor(allowPrivate: boolean): Agent {
  const connect = deadlineMs('connect');
  const key = `${allowPrivate}:${connect}`;
  let a = agents.get(key);
  if (!a) {
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    a = new undici.Agent({ connect: { timeout: connect, ...(allowPrivate ? {} : { lookup: publicOnlyLookup as never }) } });
    agents.set(key, a);
  }
  return a;
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);

async function attempt(req: OutboundRequest, ms: number, host: string): Promise<OutboundResponse> {
  const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // The timer is the layer's: it aborts the request (socket destroyed) and settles the call.
  const fired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new OutboundTimeout(host, ms);
      ac.abort(e);
      reject(e);
    }, ms);
  });
  const call = (async () => {
    const res = await undici.request(req.url, {
      method: req.method as never,
      headers: req.headers,
      body: req.body ?? undefined,
      dispatcher: agentFor(!!req.allowPrivate),
      signal: ac.signal,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
    return { status: res.statusCode, headers, body };
  })();
  try {
    return await Promise.race([call, fired]);
  } finally {
    clearTimeout(timer);
  }
}

const kindOf = (err: unknown): OutcomeKind => {
  const e = err as { code?: string; cause?: unknown };
  if (err instanceof OutboundTimeout) return 'timeout';
  if (err instanceof DestinationRefused || e?.cause instanceof DestinationRefused) return 'refused';
  if (e?.code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect-timeout';
  return 'failed';
};

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends one call under its deadline; throws OutboundTimeout, DestinationRefused or the transport's error. */
export async function send(req: OutboundRequest): Promise<OutboundResponse> {
  const u = new URL(req.url);
  const operation = req.operation ?? currentScope().operation ?? 'push';
  const ms = allowedMs(operation);
  const started = Date.now();
  const deadlineAt = started + ms;
  const base = { platform: req.platform, operation, method: req.method, host: u.host, path: u.pathname, deadline_ms: ms };
  const done = (status: number | null, outcome: OutcomeKind, attempts: number) =>
    record({ ...base, status, outcome, attempts, duration_ms: Date.now() - started, trace_id: currentScope().traceId ?? null });
  if (!req.allowPrivate && !isAllowedHost(u.hostname)) {
    done(null, 'refused', 0);
    throw new DestinationRefused();
  }
  for (let n = 1; ; n++) {
    const left = deadlineAt - Date.now();
    if (left <= 0) {
      done(null, 'timeout', n - 1);
      throw new OutboundTimeout(u.host, ms);
    }
    try {
      const res = await attempt(req, left, u.host);
      const retry = req.retrySafe && n < 3 && RETRY_STATUS.has(res.status);
      const wait = Math.min(Number(res.headers['retry-after']) * 1000 || 200 * 2 ** n, 5_000);
      if (retry && Date.now() + wait < deadlineAt) {
        await pause(wait);
        continue;
      }
      done(res.status, res.status < 400 ? 'ok' : 'http-error', n);
      return res;
    } catch (err) {
      const kind = kindOf(err);
      // A timeout is never retried: the first send may have landed.
      if (req.retrySafe && n < 3 && (kind === 'failed' || kind === 'connect-timeout') && Date.now() + 200 < deadlineAt) {
        await pause(200 * n);
        continue;
      }
      done(null, kind, n);
      throw err;
    }
  }
}
