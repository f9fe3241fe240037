import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { carrierRates as rates } from '../../../domain/fulfillment/index.js';
import {
  CarrierRateBody,
  CarrierRateListQuery,
  CarrierRateListSchema,
  CarrierRateParams,
  CarrierRateSchema,
} from '../../../contract/fulfillment.js';

// The operator's rate table, used by the built-in 'table' carrier adapter when a label is
// bought by rate shopping (docs/fulfillment.md).

const tags = ['Fulfillment'];

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof CarrierRateListQuery> }>(
    '/v1/ops/carrier-rates',
    {
      config: { permission: 'READ_FULFILLMENTS', family: 'ops' },
      schema: {
        operationId: 'listCarrierRates',
        tags,
        summary: 'List the carrier rate table',
        querystring: CarrierRateListQuery,
        response: { 200: CarrierRateListSchema },
      },
    },
    async (request) => rates.listCarrierRates(app.db, request.principal.teamId, request.query),
  );

  app.post<{ Body: Static<typeof CarrierRateBody> }>(
    '/v1/ops/carrier-rates',
    {
      config: { permission: 'WRITE_FULFILLMENTS', family: 'ops' },
      schema: {
        operationId: 'createCarrierRate',
        tags,
        summary: 'Add a carrier service to the rate table',
        description:
          'price = amount + per_unit_weight x package weight (in weight_unit). max_weight and countries ' +
          '(ISO alpha-2) restrict which packages the service takes.',
        body: CarrierRateBody,
        response: { 201: CarrierRateSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await rates.createCarrierRate(app.db, request.principal.teamId, request.body)),
  );

  app.delete<{ Params: Static<typeof CarrierRateParams> }>(
    '/v1/ops/carrier-rates/:carrier_rate_id',
    {
      config: { permission: 'WRITE_FULFILLMENTS', family: 'ops' },
      schema: {
        operationId: 'deleteCarrierRate',
        tags,
        summary: 'Remove a carrier service from the rate table',
        params: CarrierRateParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      await rates.deleteCarrierRate(app.db, request.principal.teamId, request.params.carrier_rate_id);
      return reply.code(204).send();
    },
  );
}
