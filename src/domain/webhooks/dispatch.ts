import { randomUUID } from 'node:crypto';
import type { Db, OutboxEvent, WebhookDelivery, WebhookEndpoint } from '../../db/types.js';
import { PermanentPushError, pushTracking, type SalesChannelAdapters } from '../events/index.js';
import { DestinationRefused, isAllowedHost } from '../../net/network.js';
import { OutboundTimeout, send } from '../../net/outbound.js';
import { withOutboundScope } from '../../net/deadlines.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { statementsOf } from '../../db/statements.js';
import { transaction } from '../../db/tx.js';
import { markDelivered } from '../events/index.js';
import { payloadFor } from './test-labels.js';
import { metrics } from '../../shared/metrics.js';
import {
  claimDueRows,
  findActiveEndpoints,
  findDeliveryKeys,
  findDueDeliveries,
  findDueEvents,
  findEvents,
  insertDeliveries,
  markClaimedDelivered,
  updateClaimedDelivery,
  updateClaimedEvent,
  type Claimable,
  type DueEvent,
} from './store/outbox.js';

// Delivery of outbox events, in two steps that each claim rows race-free across replicas:
//  1. processDueEvents: an event is fanned out into one WebhookDelivery per matching active
//     endpoint of its team (unique endpoint_id+event_id), and 'tracking.push' events are handed
//     to the sales-channel adapter; then the event is marked delivered.
//  2. deliverDueWebhooks: each pending delivery is POSTed, signed, and retried with backoff.
// Claiming = one UPDATE per batch that moves next_attempt_at LEASE_MS ahead on the rows still due
// and stamps them with the pass's claim id; only the rows carrying its claim id are the worker's,
// every outcome is written only where the claim id is still its own, and a crashed worker's
// lease simply runs out. A batch of N costs a few statements, not N of each. The statements are
// store/outbox.ts's, on the raw driver.

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

/**
 * The JSON body POSTed for an event to an endpoint; the same bytes on every retry. A test label's
 * tracking reaches only test endpoints (test-labels.ts).
 */
export const webhookBody = (event: OutboxEvent, endpoint: Pick<WebhookEndpoint, 'test'>) =>
  JSON.stringify({ id: event.id, type: event.kind, created_at: event.created_at.toISOString(), data: payloadFor(endpoint, event.payload) });

// ---------- claims (events and deliveries alike) ----------

/**
 * Claims the due rows among `rows` in one UPDATE: each row it matches gets this pass's claim id,
 * its lease and its attempt counted. Returns the rows that are now ours (those another worker
 * claimed since our read no longer match `next_attempt_at <= now`). Later writes of a row's
 * outcome are conditioned on the claim id, so a worker whose lease was taken over writes nothing.
 */
async function claimBatch<T extends { id: string; attempts: number }>(
  db: Db,
  table: Claimable,
  rows: T[],
  now: Date,
): Promise<{ claimId: string; mine: T[] }> {
  const claimId = randomUUID();
  const ids = rows.map((r) => r.id);
  const taken = await claimDueRows(db, table, ids, now, claimId, leaseFrom(now));
  return { claimId, mine: taken.size === rows.length ? rows : rows.filter((r) => taken.has(r.id)) };
}

// ---------- events ----------

export async function processDueEvents(db: Db, now: Date, opts: { batchSize: number; adapters: SalesChannelAdapters }) {
  const due = await findDueEvents(db, now, opts.batchSize);
  if (!due.length) return 0;
  // One endpoint lookup per team per pass, not per event (a pass takes well under the lease).
  const endpointsOf = new Map<string, Promise<WebhookEndpoint[]>>();
  const activeEndpoints = (teamId: string) => {
    let found = endpointsOf.get(teamId);
    if (!found) endpointsOf.set(teamId, (found = findActiveEndpoints(db, teamId)));
    return found;
  };
  // An event nobody is sent (no active endpoint of its team subscribes, not a push) is written
  // delivered by its INSERT (events/store.ts); one whose endpoints went away since is claimed and
  // marked delivered here by one UPDATE, its row (a charge's is ~2.7 KB) written once, not twice.
  const sent = await Promise.all(
    due.map(async (e) => e.kind === 'tracking.push' || (await activeEndpoints(e.team_id)).some((x) => matchesEndpoint(x, e.kind))),
  );
  const quiet = due.filter((_, i) => !sent[i]).map((e) => e.id);
  const quietDone = quiet.length
    ? (await claimDueRows(db, 'outboxEvent', quiet, now, randomUUID(), leaseFrom(now), { deliveredAt: now })).size
    : 0;
  const work = due.filter((_, i) => sent[i]);
  if (!work.length) return quietDone;
  const { claimId, mine } = await claimBatch(db, 'outboxEvent', work, now);
  const failed = async (event: DueEvent, err: unknown) => {
    const attempts = event.attempts + 1;
    const final = err instanceof PermanentPushError || attempts >= MAX_ATTEMPTS;
    // Written only while the claim is still ours.
    await updateClaimedEvent(
      db,
      event.id,
      claimId,
      final ? { failedAt: now } : { nextAttemptAt: after(now, RETRY_SCHEDULE_MS[attempts - 1]!) },
      errorText(err),
    );
  };

  // Tracking pushes call a sales channel each, so they go one by one, and one that reached its
  // platform is marked delivered at once (a retry would push it again). Every other event of the
  // batch, and the pushes that sent nothing (SKIPPED: a MANUAL order), are fanned out together,
  // in one transaction.
  const pushes = mine.filter((e) => e.kind === 'tracking.push');
  const rest = mine.filter((e) => e.kind !== 'tracking.push');
  const results = new Map<string, object>();
  let processed = quietDone;
  for (const event of pushes) {
    try {
      const push = await pushTracking(db, event, opts.adapters);
      const result = { tracking_push: { ...push, pushed_at: now.toISOString() } };
      if (push.status === 'SKIPPED') {
        results.set(event.id, result);
        rest.push(event);
        continue;
      }
      await fanOut(db, claimId, [event], now, activeEndpoints, new Map([[event.id, result]]));
      processed++;
    } catch (err) {
      metrics?.channelPushFailures.inc({ kind: 'tracking' });
      await failed(event, err);
    }
  }
  if (rest.length) {
    try {
      await fanOut(db, claimId, rest, now, activeEndpoints, results);
      processed += rest.length;
    } catch (err) {
      for (const event of rest) await failed(event, err);
    }
  }
  return processed;
}

/**
 * One delivery per matching active endpoint of each event, and the events marked delivered (with
 * their `results`, by event id, where given): one transaction.
 */
async function fanOut(
  db: Db,
  claimId: string,
  events: DueEvent[],
  now: Date,
  activeEndpoints: (teamId: string) => Promise<WebhookEndpoint[]>,
  results = new Map<string, object>(),
) {
  // A retry after a lost lease may find some deliveries made already; the unique key backs this
  // up. On a first claim (attempts was 0) nobody can have fanned the event out yet.
  const retried = events.filter((e) => e.attempts > 0);
  const endpointIds = new Set((await Promise.all(retried.map((e) => activeEndpoints(e.team_id)))).flat().map((e) => e.id));
  const existing = endpointIds.size
    ? await findDeliveryKeys(
        db,
        [...endpointIds],
        retried.map((e) => e.id),
      )
    : [];
  const have = new Set(existing.map((d) => `${d.endpoint_id} ${d.event_id}`));
  const rows: { endpoint_id: string; event_id: string; event_kind: string }[] = [];
  for (const event of events) {
    for (const e of (await activeEndpoints(event.team_id)).filter((x) => matchesEndpoint(x, event.kind))) {
      if (!have.has(`${e.id} ${event.id}`)) rows.push({ endpoint_id: e.id, event_id: event.id, event_kind: event.kind });
    }
  }
  await transaction(db, async (tx) => {
    const st = statementsOf(tx, db.provider);
    const marks = events.map((e): [string, object | null] => [e.id, results.get(e.id) ?? null]);
    // A lease ran out mid-pass and another worker took some of these over: it fans them out.
    if ((await markDelivered(st, claimId, now, marks)) !== events.length) throw new LostClaim();
    await insertDeliveries(st, rows, now);
  }).catch((err) => {
    if (!(err instanceof LostClaim)) throw err;
  });
}

class LostClaim extends Error {}

// ---------- webhook deliveries ----------

/**
 * POSTs through the outbound layer (src/net/outbound.ts; deadline 'webhook', or timeoutMs when
 * given; never re-sent by the layer: the outbox retries); any 2xx is success, anything else
 * (redirects too) a failure. Unless allowPrivate, only public addresses are reached (URL host
 * checked, then every DNS answer on the connection itself). Failure details stay coarse
 * ("connection failed", "timeout", "HTTP <status>"), so the deliveries list cannot tell a closed
 * port from a filtered one.
 */
export function fetchSender(timeoutMs: number | undefined, userAgent: string, opts: { allowPrivate?: boolean } = {}): WebhookSender {
  return async (url, body, headers) => {
    if (!opts.allowPrivate && !isAllowedHost(new URL(url).hostname)) {
      return { ok: false, status: null, error: 'destination not allowed' };
    }
    try {
      const call = () =>
        send({
          url,
          method: 'POST',
          body,
          platform: 'webhook',
          operation: 'webhook',
          allowPrivate: opts.allowPrivate,
          headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...headers },
        });
      const res = timeoutMs ? await withOutboundScope({ deadlineAt: Date.now() + timeoutMs }, call) : await call();
      return res.status >= 200 && res.status < 300
        ? { ok: true, status: res.status, error: null }
        : { ok: false, status: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      const timedOut = err instanceof OutboundTimeout || (err as { code?: string })?.code === 'UND_ERR_CONNECT_TIMEOUT';
      const refused = err instanceof DestinationRefused || (err instanceof Error && err.cause instanceof DestinationRefused);
      return { ok: false, status: null, error: timedOut ? 'timeout' : refused ? 'destination not allowed' : 'connection failed' };
    }
  };
}

export async function deliverDueWebhooks(db: Db, now: Date, opts: { batchSize: number; concurrency: number; send: WebhookSender }) {
  const due = await findDueDeliveries(db, now, opts.batchSize);
  const stats = { delivered: 0, retrying: 0, failed: 0 };
  if (!due.length) return stats;
  const { claimId, mine } = await claimBatch(db, 'webhookDelivery', due, now);
  if (!mine.length) return stats;
  const events = await findEvents(db, [...new Set(mine.map((d) => d.event_id))]);
  const eventById = new Map(events.map((e) => [e.id, e]));
  // Successes are written together at the end (one UPDATE per response status, one transaction); failures one by one.
  const deliveredBy = new Map<number, string[]>();
  let next = 0;
  const worker = async () => {
    while (next < mine.length) {
      const d = mine[next++]!;
      const event = eventById.get(d.event_id);
      const result = event ? await sendOne(d, event, opts.send) : { ok: false, status: null, error: 'the event no longer exists' };
      if (result.ok) {
        deliveredBy.set(result.status!, [...(deliveredBy.get(result.status!) ?? []), d.id]);
        continue;
      }
      const attempts = d.attempts + 1;
      const final = !event || attempts >= MAX_ATTEMPTS;
      await updateClaimedDelivery(db, d.id, claimId, {
        responseStatus: result.status,
        error: result.error,
        nextAttemptAt: final ? null : after(now, RETRY_SCHEDULE_MS[attempts - 1]!),
      });
      stats[final ? 'failed' : 'retrying']++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, mine.length) }, worker));
  if (deliveredBy.size) stats.delivered = await markClaimedDelivered(db, deliveredBy, claimId, now);
  return stats;
}

function sendOne(d: WebhookDelivery & { endpoint: WebhookEndpoint }, event: OutboxEvent, send: WebhookSender): Promise<SendResult> {
  const body = webhookBody(event, d.endpoint);
  return send(d.endpoint.url, body, {
    [SIGNATURE_HEADER]: signatureHeader(d.endpoint.secret, body),
    [EVENT_ID_HEADER]: event.id,
    [EVENT_TYPE_HEADER]: event.kind,
  });
}
