import { AsyncLocalStorage } from 'node:async_hooks';

// Deadlines of outbound calls, per operation (docs/carriers.md, docs/sales-channels.md). Each is
// FOS_DEADLINE_<OPERATION>_MS in the environment (read at every call, so tests use short ones).
// A scope (withOutboundScope) carries the request's trace id and, for a request that must answer
// in time (a label request: 35 s; a shop's webhook: 3 s), an absolute deadline every call inside
// it is cut to: a call never outlives the request that waits for it.

export const DEADLINE_DEFAULTS = {
  /** TCP (and TLS) connection set-up of any call. */
  connect: 5_000,
  /** One carrier's quote (rating asks every integration at once). */
  rates: 10_000,
  /** Buying a label (EasyPost buy, Shippo transaction). */
  purchase: 20_000,
  /** Reading a purchase or a refund back from the carrier. */
  reconcile: 8_000,
  /** Asking the carrier to refund a label. */
  refund: 15_000,
  /** Address verification (EasyPost POST /addresses). */
  verify: 10_000,
  /** A fulfillment / tracking push, a stock push, an order read (Shopify, WooCommerce). */
  push: 15_000,
  /** Downloading a bought label's documents. */
  download: 10_000,
  /** One delivery of an outgoing webhook. */
  webhook: 10_000,
  /** A whole label request, rating to attach: it answers within this whatever the carrier does. */
  label: 33_000,
  /** A shop's webhook: how long its handler waits on a platform (Shopify gives up at 5 s). */
  intake: 3_000,
} as const;

export type Operation = keyof typeof DEADLINE_DEFAULTS;

export function deadlineMs(op: Operation): number {
  const v = Number(process.env[`FOS_DEADLINE_${op.toUpperCase()}_MS`]);
  return Number.isFinite(v) && v > 0 ? v : DEADLINE_DEFAULTS[op];
}

export interface OutboundScope {
  traceId?: string;
  /** Absolute time (ms) no call in this scope may outlive. */
  deadlineAt?: number;
  /** The operation calls in this scope are for (set by the adapter around an SDK call). */
  operation?: Operation;
}

const scope = new AsyncLocalStorage<OutboundScope>();

export const currentScope = (): OutboundScope => scope.getStore() ?? {};

/** Runs fn with the scope merged into the current one (an earlier, tighter deadline wins). */
export function withOutboundScope<T>(s: OutboundScope, fn: () => T): T {
  const cur = currentScope();
  const deadlineAt = [cur.deadlineAt, s.deadlineAt].filter((d): d is number => d !== undefined);
  return scope.run({ ...cur, ...s, deadlineAt: deadlineAt.length ? Math.min(...deadlineAt) : undefined }, fn);
}

/** Calls made by fn count as `op` (their deadline is that operation's). */
export const asOperation = <T>(op: Operation, fn: () => T): T => withOutboundScope({ operation: op }, fn);

/** fn under a deadline of `op`'s length from now (a label request, a webhook intake). */
export const withDeadline = <T>(op: Operation, fn: () => T): T => withOutboundScope({ deadlineAt: Date.now() + deadlineMs(op) }, fn);

/** Milliseconds an `op` call may take now: its own deadline, cut to the scope's. */
export function allowedMs(op: Operation): number {
  const own = deadlineMs(op);
  const { deadlineAt } = currentScope();
  return deadlineAt === undefined ? own : Math.max(0, Math.min(own, deadlineAt - Date.now()));
}

/** fn with no scope deadline (background work started by a request that must answer soon). */
export const runOutsideDeadline = <T>(fn: () => T): T => scope.run({ ...currentScope(), deadlineAt: undefined }, fn);

/** Waits for p at most ms (a timer of its own); p goes on when the wait ends first. */
export async function waitAtMost(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))));
  p.catch(() => undefined);
  try {
    await Promise.race([p.then(() => undefined), waited]);
  } finally {
    clearTimeout(timer);
  }
}
