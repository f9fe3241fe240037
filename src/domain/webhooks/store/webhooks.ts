import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The webhooks' data access (issue 38 item 4), through Prisma: the outbox events the long poll
// reads, the endpoints, their deliveries' pages and the backlog. The outbox worker's pass (claims,
// due rows, outcomes, the fan-out's deliveries) is outbox.ts's, on the raw driver. The rules
// (claims and leases, retries, which endpoint gets what, URL checks) stay in ../dispatch.ts,
// ../endpoints.ts and ../listen.ts.

type Client = Db['prisma'] | TxClient;
type Window<W> = { where: W; orderBy: never; skip: number; take: number };

// ---------- events ----------

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
