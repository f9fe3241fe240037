import type { Db, OutboxEvent, WebhookDelivery, WebhookEndpoint } from '../../db/types.js';
import { PermanentPushError, pushTracking, type SalesChannelAdapters } from '../events/sales-channel.js';
import { fetch as undiciFetch } from 'undici';
import { DestinationRefused, isAllowedHost, publicOnlyAgent } from './network.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';

// Delivery of outbox events, in two steps that each claim rows race-free across replicas:
//  1. processDueEvents: an event is fanned out into one WebhookDelivery per matching active
//     endpoint of its team (unique endpoint_id+event_id), and 'tracking.push' events are handed
//     to the sales-channel adapter; then the event is marked delivered.
//  2. deliverDueWebhooks: each pending delivery is POSTed, signed, and retried with backoff.
// Claiming = a compare-and-set that moves next_attempt_at LEASE_MS ahead; only the worker whose
// UPDATE matched (count 1) works on the row, and a crashed worker's lease simply runs out.

/** Wait after failed attempt n (1-based); after the last one the row is FAILED. */
export const RETRY_SCHEDULE_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
export const LEASE_MS = 60_000;
const MAX_ERROR_LENGTH = 500;

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export type WebhookSender = (url: string, body: string, headers: Record<string, string>) => Promise<SendResult>;

const errorText = (err: unknown) => String(err instanceof Error ? err.message : err).slice(0, MAX_ERROR_LENGTH);
const after = (now: Date, ms: number) => new Date(now.getTime() + ms);
// A lease runs from the claim, not from the pass's `now`: a pass that has been sending for longer
// than LEASE_MS would otherwise claim rows whose lease has already run out for other replicas.
const leaseFrom = (now: Date) => after(new Date(Math.max(now.getTime(), Date.now())), LEASE_MS);

export const matchesEndpoint = (endpoint: Pick<WebhookEndpoint, 'events'>, kind: string) => {
  const events = Array.isArray(endpoint.events) ? (endpoint.events as string[]) : [];
  return events.includes('*') || events.includes(kind);
};

/** The JSON body POSTed for an event; the same bytes on every retry. */
export const webhookBody = (event: OutboxEvent) =>
  JSON.stringify({ id: event.id, type: event.kind, created_at: event.created_at.toISOString(), data: event.payload });

// ---------- events ----------

export async function processDueEvents(db: Db, now: Date, opts: { batchSize: number; adapters: SalesChannelAdapters }) {
  const due = await db.prisma.outboxEvent.findMany({
    where: { delivered_at: null, failed_at: null, next_attempt_at: { lte: now } },
    orderBy: [{ next_attempt_at: 'asc' }, { id: 'asc' }],
    take: opts.batchSize,
  });
  let processed = 0;
  // One endpoint lookup per team per pass, not per event (a pass takes well under the lease).
  const endpointsOf = new Map<string, Promise<WebhookEndpoint[]>>();
  const activeEndpoints = (teamId: string) => {
    let found = endpointsOf.get(teamId);
    if (!found) endpointsOf.set(teamId, (found = db.prisma.webhookEndpoint.findMany({ where: { team_id: teamId, active: true } })));
    return found;
  };
  for (const event of due) {
    // Compare-and-set on attempts too: a row another worker claimed since our read is not ours.
    const claim = await db.prisma.outboxEvent.updateMany({
      where: { id: event.id, delivered_at: null, failed_at: null, next_attempt_at: { lte: now }, attempts: event.attempts },
      data: { next_attempt_at: leaseFrom(now), attempts: { increment: 1 } },
    });
    if (claim.count !== 1) continue; // another worker has it
    const attempts = event.attempts + 1;
    try {
      const result = event.kind === 'tracking.push'
        ? { tracking_push: { ...(await pushTracking(db, event, opts.adapters)), pushed_at: now.toISOString() } }
        : undefined;
      await fanOut(db, event, now, result, await activeEndpoints(event.team_id));
      processed++;
    } catch (err) {
      const final = err instanceof PermanentPushError || attempts >= MAX_ATTEMPTS;
      await db.prisma.outboxEvent.updateMany({
        where: { id: event.id, attempts, delivered_at: null }, // still our claim
        data: final
          ? { failed_at: now, last_error: errorText(err) }
          : { next_attempt_at: after(now, RETRY_SCHEDULE_MS[attempts - 1]!), last_error: errorText(err) },
      });
    }
  }
  return processed;
}

async function fanOut(db: Db, event: OutboxEvent, now: Date, result: object | undefined, active: WebhookEndpoint[]) {
  const endpoints = active.filter((e) => matchesEndpoint(e, event.kind));
  // A retry after a lost lease may find some deliveries made already; the unique key backs this
  // up. On the first claim (attempts was 0) nobody can have fanned this event out yet.
  const existing = endpoints.length && event.attempts > 0
    ? await db.prisma.webhookDelivery.findMany({ where: { event_id: event.id }, select: { endpoint_id: true } })
    : [];
  const have = new Set(existing.map((d) => d.endpoint_id));
  const rows = endpoints.filter((e) => !have.has(e.id)).map((e) => ({
    endpoint_id: e.id, event_id: event.id, event_kind: event.kind, next_attempt_at: now,
  }));
  await db.prisma.$transaction(async (tx) => {
    if (rows.length) await tx.webhookDelivery.createMany({ data: rows });
    await tx.outboxEvent.update({
      where: { id: event.id },
      data: { delivered_at: now, last_error: null, ...(result ? { result: result as never } : {}) },
    });
  });
}

// ---------- webhook deliveries ----------

/**
 * POSTs with fetch and a timeout; any 2xx is success, anything else (redirects too) a failure.
 * Unless allowPrivate, only public addresses are reached (URL host checked, then every DNS answer
 * on the connection itself). Failure details stay coarse ("connection failed", "timeout",
 * "HTTP <status>"), so the deliveries list cannot tell a closed port from a filtered one.
 */
export function fetchSender(timeoutMs: number, userAgent: string, opts: { allowPrivate?: boolean } = {}): WebhookSender {
  const dispatcher = opts.allowPrivate ? undefined : publicOnlyAgent();
  return async (url, body, headers) => {
    if (!opts.allowPrivate && !isAllowedHost(new URL(url).hostname)) {
      return { ok: false, status: null, error: 'destination not allowed' };
    }
    try {
      const res = await undiciFetch(url, {
        method: 'POST', body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), dispatcher,
        headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...headers },
      });
      await res.body?.cancel().catch(() => {});
      return res.status >= 200 && res.status < 300
        ? { ok: true, status: res.status, error: null }
        : { ok: false, status: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const refused = err instanceof Error && err.cause instanceof DestinationRefused;
      return { ok: false, status: null, error: timedOut ? 'timeout' : refused ? 'destination not allowed' : 'connection failed' };
    }
  };
}

export async function deliverDueWebhooks(db: Db, now: Date, opts: { batchSize: number; concurrency: number; send: WebhookSender }) {
  const due = await db.prisma.webhookDelivery.findMany({
    where: { status: 'PENDING', next_attempt_at: { lte: now }, endpoint: { active: true } },
    include: { endpoint: true },
    orderBy: [{ next_attempt_at: 'asc' }, { id: 'asc' }],
    take: opts.batchSize,
  });
  const stats = { delivered: 0, retrying: 0, failed: 0 };
  if (!due.length) return stats;
  const events = await db.prisma.outboxEvent.findMany({ where: { id: { in: [...new Set(due.map((d) => d.event_id))] } } });
  const eventById = new Map(events.map((e) => [e.id, e]));
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const d = due[next++]!;
      const outcome = await deliverOne(db, now, d, eventById.get(d.event_id), opts.send);
      if (outcome !== 'skipped') stats[outcome]++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, due.length) }, worker));
  return stats;
}

async function deliverOne(
  db: Db, now: Date, d: WebhookDelivery & { endpoint: WebhookEndpoint }, event: OutboxEvent | undefined, send: WebhookSender,
): Promise<'delivered' | 'retrying' | 'failed' | 'skipped'> {
  // The claim counts the attempt (increment, compare-and-set on the count read), so a worker
  // holding a stale read cannot claim it again, and only the claimer's outcome is written.
  const claim = await db.prisma.webhookDelivery.updateMany({
    where: { id: d.id, status: 'PENDING', next_attempt_at: { lte: now }, attempts: d.attempts },
    data: { next_attempt_at: leaseFrom(now), attempts: { increment: 1 } },
  });
  if (claim.count !== 1) return 'skipped';
  const attempts = d.attempts + 1;
  const ours = { id: d.id, status: 'PENDING' as const, attempts };
  const result: SendResult = event
    ? await (async () => {
      const body = webhookBody(event);
      return send(d.endpoint.url, body, {
        [SIGNATURE_HEADER]: signatureHeader(d.endpoint.secret, body),
        [EVENT_ID_HEADER]: event.id,
        [EVENT_TYPE_HEADER]: event.kind,
      });
    })()
    : { ok: false, status: null, error: 'the event no longer exists' };
  if (result.ok) {
    await db.prisma.webhookDelivery.updateMany({
      where: ours,
      data: { status: 'DELIVERED', response_status: result.status, last_error: null, delivered_at: now },
    });
    return 'delivered';
  }
  const final = !event || attempts >= MAX_ATTEMPTS;
  await db.prisma.webhookDelivery.updateMany({
    where: ours,
    data: {
      response_status: result.status,
      last_error: result.error,
      ...(final ? { status: 'FAILED' } : { next_attempt_at: after(now, RETRY_SCHEDULE_MS[attempts - 1]!) }),
    },
  });
  return final ? 'failed' : 'retrying';
}
