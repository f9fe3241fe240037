import type { Db, Prisma, WebhookDelivery, WebhookEndpoint } from '../../db/types.js';
import { invalid, notFound } from '../errors.js';
import { isEventKind } from '../events/index.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { generateSecret } from './signature.js';
import { isAllowedHost, PRIVATE_WEBHOOK_HINT } from '../../net/network.js';
import { noteAuditBefore } from '../audit/index.js';
import {
  deleteTeamEndpoint,
  findDeliveryPage,
  findEndpointFields,
  findEndpointPage,
  findTeamEndpoint,
  insertEndpoint,
  updateTeamEndpoint,
} from './store/webhooks.js';

// Webhook endpoints of a team (either kind). The signing secret is returned once, on creation;
// reads never show it.

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string;
  /** Receives test labels' tracking as it is (docs/webhooks.md "Test labels"). */
  test?: boolean;
}

export interface EndpointPatch {
  url?: string;
  events?: string[];
  description?: string;
  active?: boolean;
  test?: boolean;
}

/** ['*'] alone, or a list of known kinds (deduplicated). */
function normalizeEvents(events: string[]): string[] {
  const list = [...new Set(events)];
  if (list.includes('*')) {
    if (list.length > 1) throw invalid('body.events', "'*' subscribes to every kind; give it alone");
    return list;
  }
  const unknown = list.find((k) => !isEventKind(k));
  if (unknown) throw invalid('body.events', `unknown event kind ${unknown}`);
  return list;
}

export interface UrlPolicy {
  /** Allow loopback/private/link-local destinations (fos serve --allow-private-webhooks). */
  allowPrivate?: boolean;
}

function checkUrl(url: string, policy: UrlPolicy) {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid('body.url', 'must be an absolute URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid('body.url', 'must be an http or https URL');
  if (u.username || u.password) throw invalid('body.url', 'must not contain credentials');
  if (!policy.allowPrivate && !isAllowedHost(u.hostname)) throw invalid('body.url', PRIVATE_WEBHOOK_HINT);
}

export const endpointView = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: (Array.isArray(e.events) ? e.events : []) as string[],
  active: e.active,
  test: e.test,
  created_at: e.created_at,
  updated_at: e.updated_at,
});

export async function createEndpoint(db: Db, teamId: string, input: EndpointInput, policy: UrlPolicy = {}) {
  checkUrl(input.url, policy);
  const endpoint = await insertEndpoint(db.prisma, {
    team_id: teamId,
    url: input.url,
    description: input.description ?? '',
    events: normalizeEvents(input.events),
    test: input.test ?? false,
    secret: generateSecret(),
  });
  return { ...endpointView(endpoint), secret: endpoint.secret };
}

export async function getEndpoint(db: Db, teamId: string, id: string) {
  const endpoint = await findTeamEndpoint(db.prisma, teamId, id);
  if (!endpoint) throw notFound('Webhook endpoint', id);
  return endpoint;
}

export async function listEndpoints(db: Db, teamId: string, q: PageRequest) {
  const orderBy = [{ created_at: 'asc' }, { id: 'asc' }];
  const rows = await findEndpointPage(db.prisma, pageArgs(q, { team_id: teamId }, orderBy));
  return toPage(rows, q, undefined, orderBy);
}

export async function updateEndpoint(db: Db, teamId: string, id: string, patch: EndpointPatch, policy: UrlPolicy = {}) {
  const data: Prisma.WebhookEndpointUpdateManyMutationInput = {};
  if (patch.url !== undefined) {
    checkUrl(patch.url, policy);
    data.url = patch.url;
  }
  if (patch.events !== undefined) data.events = normalizeEvents(patch.events);
  if (patch.description !== undefined) data.description = patch.description;
  if (patch.active !== undefined) data.active = patch.active;
  if (patch.test !== undefined) data.test = patch.test;
  // The audit record's "from" (docs/audit.md): one read of the fields a PATCH changes, never the secret.
  const before = await findEndpointFields(db.prisma, teamId, id);
  noteAuditBefore(before);
  const { count } = await updateTeamEndpoint(db.prisma, teamId, id, data);
  if (count !== 1) throw notFound('Webhook endpoint', id);
  return getEndpoint(db, teamId, id);
}

/** Deletes the endpoint and its delivery history (cascade). */
export async function deleteEndpoint(db: Db, teamId: string, id: string) {
  const { count } = await deleteTeamEndpoint(db.prisma, teamId, id);
  if (count !== 1) throw notFound('Webhook endpoint', id);
}

export const deliveryView = (d: WebhookDelivery) => ({
  id: d.id,
  endpoint_id: d.endpoint_id,
  event_id: d.event_id,
  event_kind: d.event_kind,
  status: d.status as 'PENDING' | 'DELIVERED' | 'FAILED',
  attempts: d.attempts,
  next_attempt_at: d.status === 'PENDING' ? d.next_attempt_at : null,
  response_status: d.response_status,
  last_error: d.last_error,
  delivered_at: d.delivered_at,
  created_at: d.created_at,
  updated_at: d.updated_at,
});

export async function listDeliveries(
  db: Db,
  teamId: string,
  endpointId: string,
  q: PageRequest & { status?: 'PENDING' | 'DELIVERED' | 'FAILED' },
) {
  await getEndpoint(db, teamId, endpointId);
  const orderBy = [{ created_at: 'desc' }, { id: 'desc' }];
  const rows = await findDeliveryPage(
    db.prisma,
    pageArgs(q, { endpoint_id: endpointId, ...(q.status ? { status: q.status } : {}) }, orderBy),
  );
  return toPage(rows, q, undefined, orderBy);
}
