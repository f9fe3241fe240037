import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { getAuditEvent, listAuditEvents } from '../../../domain/audit/index.js';
import { AuditEventIdParams, AuditEventListSchema, AuditEventSchema, AuditListQuery } from '../../../contract/audit.js';

// The audit log of the caller's team (docs/audit.md). Beside /v1/keys, /v1/roles and /v1/users in
// the access family, for either team kind, under MANAGE_API_KEYS: who may hand out credentials
// is who may see what they were used for.

const config = { permission: 'MANAGE_API_KEYS' } as const;
const tags = ['Access'];

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof AuditListQuery> }>(
    '/v1/audit-events',
    {
      config,
      schema: {
        operationId: 'listAuditEvents',
        tags,
        summary: "List the team's audit events, newest first",
        description: 'Every recorded write: actor, address, operation, target and the fields it changed (secrets redacted).',
        querystring: AuditListQuery,
        response: { 200: AuditEventListSchema },
      },
    },
    async (request) => listAuditEvents(app.db, request.principal.teamId, request.query),
  );

  app.get<{ Params: Static<typeof AuditEventIdParams> }>(
    '/v1/audit-events/:event_id',
    {
      config,
      schema: {
        operationId: 'getAuditEvent',
        tags,
        summary: 'Get an audit event',
        params: AuditEventIdParams,
        response: { 200: AuditEventSchema },
      },
    },
    async (request) => getAuditEvent(app.db, request.principal.teamId, request.params.event_id),
  );
}
