import type { FastifyInstance } from 'fastify';
import { fetchList } from './list-fetch.js';
import type { Static } from 'typebox';
import { IdParams, listOf } from '../../../contract/common.js';
import { ChargeListQuery, ChargeSchema, ReceivingChargeBody, ReceivingPatchBody, StorageChargeBody } from '../../../contract/charges.js';
import { createReceivingCharge, createStorageCharge, getCharge, updateReceivingCharge } from '../../../domain/charges/index.js';
import { chargeView } from '../../../domain/charges/index.js';

const tags = ['Charges'];
const read = { permission: 'READ_CHARGES', family: 'ops' } as const;
const write = { permission: 'WRITE_CHARGES', family: 'ops' } as const;
const ChargeParams = IdParams('charge_id');

/** Charges billed to merchants (spec 4.8): storage and receiving are entered here, shipping by fulfill. */
export default async function routes(app: FastifyInstance) {
  app.get(
    '/v1/ops/charges',
    {
      config: read,
      schema: {
        operationId: 'listCharges',
        tags,
        summary: 'List charges billed by this team, newest first by default',
        querystring: ChargeListQuery,
        response: { 200: listOf(ChargeSchema) },
      },
    },
    async (request) => {
      return fetchList.charges(app.db, request.principal, request.query as Static<typeof ChargeListQuery>);
    },
  );

  app.get(
    '/v1/ops/charges/:charge_id',
    {
      config: read,
      schema: { operationId: 'getCharge', tags, summary: 'Get a charge', params: ChargeParams, response: { 200: ChargeSchema } },
    },
    async (request) => {
      const { charge_id } = request.params as Static<typeof ChargeParams>;
      return chargeView(await getCharge(app.db, request.principal.teamId, charge_id));
    },
  );

  app.post(
    '/v1/ops/charges/storage',
    {
      config: write,
      schema: {
        operationId: 'createStorageCharge',
        tags,
        summary: 'Record a storage charge priced from the rate card',
        body: StorageChargeBody,
        response: { 201: ChargeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof StorageChargeBody>;
      return reply.code(201).send(chargeView(await createStorageCharge(app.db, request.principal.teamId, body)));
    },
  );

  app.post(
    '/v1/ops/charges/receiving',
    {
      config: write,
      schema: {
        operationId: 'createReceivingCharge',
        tags,
        summary: 'Record a receiving charge priced from the rate card',
        body: ReceivingChargeBody,
        response: { 201: ChargeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof ReceivingChargeBody>;
      return reply.code(201).send(chargeView(await createReceivingCharge(app.db, request.principal.teamId, body)));
    },
  );

  app.patch(
    '/v1/ops/charges/receiving/:charge_id',
    {
      config: write,
      schema: {
        operationId: 'updateReceivingCharge',
        tags,
        summary: 'Change a receiving charge; its amounts are recomputed (other categories: 409)',
        params: ChargeParams,
        body: ReceivingPatchBody,
        response: { 200: ChargeSchema },
      },
    },
    async (request) => {
      const { charge_id } = request.params as Static<typeof ChargeParams>;
      const body = request.body as Static<typeof ReceivingPatchBody>;
      return chargeView(await updateReceivingCharge(app.db, request.principal.teamId, charge_id, body));
    },
  );
}
