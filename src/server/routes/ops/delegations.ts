import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { setRateCard } from '../../../domain/charges/index.js';
import { listDelegations } from '../../../domain/teams/index.js';
import { IdParams, listOf, pageQuery } from '../../../contract/common.js';
import { DelegationSchema, RateCardBody } from '../../../contract/order-exceptions.js';

// The fulfiller team's delegations (merchants it works for) and their rate cards (docs/charges.md).

const tags = ['Charges'];

export default async function routes(app: FastifyInstance) {
  const ListQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/v1/ops/delegations',
    {
      config: { permission: 'READ_CHARGES', family: 'ops' },
      schema: {
        operationId: 'listDelegations',
        tags,
        summary: 'List the merchants this team fulfills for, with their rate cards (oldest first)',
        querystring: ListQuery,
        response: { 200: listOf(DelegationSchema) },
      },
    },
    async (request) => listDelegations(app.db, request.principal.teamId, request.query),
  );

  app.put<{ Params: { delegation_id: string }; Body: Static<typeof RateCardBody> }>(
    '/v1/ops/delegations/:delegation_id/rate-card',
    {
      config: { permission: 'WRITE_CHARGES', family: 'ops' },
      schema: {
        operationId: 'setDelegationRateCard',
        tags,
        summary: "Set a delegation's rate card (a new version)",
        description:
          "Every PUT is a new version: a fresh version_id, and semantic_version as given or the previous one's next patch. " +
          'New charges are priced with it and name it in pricing_trace; charges made before keep the version they were priced with.',
        params: IdParams('delegation_id'),
        body: RateCardBody,
        response: { 200: DelegationSchema },
      },
    },
    async (request) => setRateCard(app.db, request.principal.teamId, request.params.delegation_id, request.body as never),
  );
}
