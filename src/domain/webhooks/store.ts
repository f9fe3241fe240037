import type { Db, Prisma, TxClient } from '../../db/types.js';

// The webhooks' data access (issue 38 item 4), through Prisma: the outbox events the dispatcher
// fans out and the long poll reads, the endpoints, and their deliveries. The rules (claims and
// leases, retries, which endpoint gets what, URL checks) stay in dispatch.ts, endpoints.ts and
// listen.ts.

type Client = Db['prisma'] | TxClient;
type Window<W> = { where: W; orderBy: never; skip: number; take: number };

// ---------- claims (events and deliveries alike) ----------

export type Claimable = 'outboxEvent' | 'webhookDelivery';

/** Both tables carry the claim columns: one delegate shape serves the claims of either. */
const delegateOf = (client: Client, table: Claimable) =>
  client[table] as unknown as {
    updateMany(a: object): Promise<{ count: number }>;
    findMany(a: object): Promise<{ id: string }[]>;
  };

/**
 * Stamps the rows of `ids` still `due` (and next_attempt_at <= now) with the claim id, the lease
 * and one more attempt, in one UPDATE; the count claimed.
 */
export async function claimDueRows(
  client: Client,
  table: Claimable,
  ids: string[],
  due: object,
  now: Date,
  claimId: string,
  leaseUntil: Date,
) {
  const { count } = await delegateOf(client, table).updateMany({
    where: { id: { in: ids }, ...due, next_attempt_at: { lte: now } },
    data: { claim_id: claimId, next_attempt_at: leaseUntil, attempts: { increment: 1 } },
  });
  return count;
}

/** Which of `ids` this claim took: by id (the primary key); neither the outbox nor the deliveries have a claim_id index (every claim paid for one). */
export async function findClaimedIds(client: Client, table: Claimable, ids: string[], claimId: string): Promise<Set<string>> {
  const rows = await delegateOf(client, table).findMany({ where: { id: { in: ids }, claim_id: claimId }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

// ---------- events ----------

/** Up to `take` events still `due` whose next attempt is due, oldest attempt first. */
export function findDueEvents(client: Client, due: Prisma.OutboxEventWhereInput, now: Date, take: number) {
  return client.outboxEvent.findMany({
    where: { ...due, next_attempt_at: { lte: now } },
    orderBy: [{ next_attempt_at: 'asc' }, { id: 'asc' }],
    take,
  });
}

/** Writes an event's failed attempt while it is still this claim's and undelivered. */
export function updateClaimedEvent(client: Client, id: string, claimId: string, data: Prisma.OutboxEventUpdateManyMutationInput) {
  return client.outboxEvent.updateMany({ where: { id, claim_id: claimId, delivered_at: null }, data });
}

export function findEvents(client: Client, ids: string[]) {
  return client.outboxEvent.findMany({ where: { id: { in: ids } } });
}

/** The id of the team's newest event, or null. */
export async function findLastEventId(client: Client, teamId: string): Promise<string | null> {
  return (await client.outboxEvent.findFirst({ where: { team_id: teamId }, orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? null;
}

/** Up to `take` of the team's events after the id `after` (of these kinds, when given), by id. */
export function findEventsAfter(client: Client, teamId: string, after: string, kinds: string[] | undefined, take: number) {
  return client.outboxEvent.findMany({
    where: { team_id: teamId, id: { gt: after }, ...(kinds ? { kind: { in: kinds } } : {}) },
    orderBy: { id: 'asc' },
    take,
    select: { id: true, kind: true, created_at: true, payload: true },
  });
}

// ---------- endpoints ----------

export function insertEndpoint(client: Client, data: Prisma.WebhookEndpointUncheckedCreateInput) {
  return client.webhookEndpoint.create({ data });
}

export function findTeamEndpoint(client: Client, teamId: string, id: string) {
  return client.webhookEndpoint.findFirst({ where: { id, team_id: teamId } });
}

export function findActiveEndpoints(client: Client, teamId: string) {
  return client.webhookEndpoint.findMany({ where: { team_id: teamId, active: true } });
}

/** One page of endpoints (pageArgs' window). */
export function findEndpointPage(client: Client, window: Window<Prisma.WebhookEndpointWhereInput>) {
  return client.webhookEndpoint.findMany(window);
}

/** The fields a PATCH may change, never the secret (the audit record's "from"). */
export function findEndpointFields(client: Client, teamId: string, id: string) {
  return client.webhookEndpoint.findFirst({
    where: { id, team_id: teamId },
    select: { url: true, events: true, description: true, active: true, test: true },
  });
}

/** The count changed (0: not the team's). */
export function updateTeamEndpoint(client: Client, teamId: string, id: string, data: Prisma.WebhookEndpointUpdateManyMutationInput) {
  return client.webhookEndpoint.updateMany({ where: { id, team_id: teamId }, data });
}

/** Deletes the endpoint and its deliveries (cascade); the count deleted. */
export function deleteTeamEndpoint(client: Client, teamId: string, id: string) {
  return client.webhookEndpoint.deleteMany({ where: { id, team_id: teamId } });
}

// ---------- deliveries ----------

/** Which (endpoint, event) deliveries of these events exist. */
export function findDeliveryKeys(client: Client, eventIds: string[]) {
  return client.webhookDelivery.findMany({ where: { event_id: { in: eventIds } }, select: { endpoint_id: true, event_id: true } });
}

export function insertDeliveries(tx: TxClient, rows: Prisma.WebhookDeliveryCreateManyInput[]) {
  return tx.webhookDelivery.createMany({ data: rows });
}

/** Up to `take` deliveries still `due` of active endpoints whose next attempt is due, with their endpoint, oldest attempt first. */
export function findDueDeliveries(client: Client, due: Prisma.WebhookDeliveryWhereInput, now: Date, take: number) {
  return client.webhookDelivery.findMany({
    where: { ...due, next_attempt_at: { lte: now }, endpoint: { active: true } },
    include: { endpoint: true },
    orderBy: [{ next_attempt_at: 'asc' }, { id: 'asc' }],
    take,
  });
}

/** Writes a delivery's failed attempt while it is this claim's and PENDING. */
export function updateClaimedDelivery(client: Client, id: string, claimId: string, data: Prisma.WebhookDeliveryUpdateManyMutationInput) {
  return client.webhookDelivery.updateMany({ where: { id, claim_id: claimId, status: 'PENDING' }, data });
}

/** Marks these deliveries DELIVERED (with the response's status) while they are this claim's and PENDING; the count. */
export function markClaimedDelivered(client: Client, ids: string[], claimId: string, status: number, now: Date) {
  return client.webhookDelivery.updateMany({
    where: { id: { in: ids }, claim_id: claimId, status: 'PENDING' },
    data: { status: 'DELIVERED', response_status: status, last_error: null, delivered_at: now },
  });
}

/** One page of deliveries (pageArgs' window). */
export function findDeliveryPage(client: Client, window: Window<Prisma.WebhookDeliveryWhereInput>) {
  return client.webhookDelivery.findMany(window);
}

/** The outbox's waiting work (/metrics): undelivered events and pending deliveries, each counted with its oldest. */
export async function findOutboxBacklog(
  client: Client,
): Promise<Record<'events' | 'webhook_deliveries', { count: number; oldest: Date | null }>> {
  const [events, deliveries] = await Promise.all([
    client.outboxEvent.aggregate({ where: { delivered_at: null, failed_at: null }, _count: { _all: true }, _min: { created_at: true } }),
    client.webhookDelivery.aggregate({ where: { status: 'PENDING' }, _count: { _all: true }, _min: { created_at: true } }),
  ]);
  const of = (r: { _count: { _all: number }; _min: { created_at: Date | null } }) => ({ count: r._count._all, oldest: r._min.created_at });
  return { events: of(events), webhook_deliveries: of(deliveries) };
}
