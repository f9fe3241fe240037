import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { IdParams, listOf } from '../../../contract/common.js';
import { ChargeSchema } from '../../../contract/charges.js';
import { DelegationSchema } from '../../../contract/order-exceptions.js';
import {
  AdHocChargeBody,
  DelegationRateCardLinkBody,
  RateCardListQuery,
  RateCardSchema,
  RateCardTestBody,
  RateCardTestResult,
  RateCardVersionSchema,
} from '../../../contract/rate-cards.js';
import { addAdHocCharge } from '../../../domain/charges/index.js';
import { chargeView } from '../../../domain/charges/index.js';
import { getRateCard, getVersion, linkDelegation, listRateCards, publishVersion, testRateCard } from '../../../domain/charges/index.js';
import { delegationView } from '../../../domain/teams/index.js';

// Versioned rate cards (docs/billing.md): list, show, a version (what publish accepts unchanged),
// publish, test a sample event; a delegation pointed at a card; ad-hoc charges posted by a person.

const tags = ['Charges'];
const read = { permission: 'READ_CHARGES', family: 'ops' } as const;
const write = { permission: 'WRITE_CHARGES', family: 'ops' } as const;
const CardParams = IdParams('rate_card_id');
const VersionParams = Type.Object(
  { rate_card_id: Type.String({ minLength: 1, maxLength: 200 }), version: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export default async function routes(app: FastifyInstance) {
  app.get(
    '/v1/ops/rate-cards',
    {
      config: read,
      schema: {
        operationId: 'listRateCards',
        tags,
        summary: "List this team's versioned rate cards with their versions",
        querystring: RateCardListQuery,
        response: { 200: listOf(RateCardSchema) },
      },
    },
    async (request) => listRateCards(app.db, request.principal.teamId, request.query as Static<typeof RateCardListQuery>),
  );

  app.get(
    '/v1/ops/rate-cards/:rate_card_id',
    {
      config: read,
      schema: {
        operationId: 'getRateCard',
        tags,
        summary: 'Get a rate card (by id or name) with its versions',
        params: CardParams,
        response: { 200: RateCardSchema },
      },
    },
    async (request) => getRateCard(app.db, request.principal.teamId, (request.params as { rate_card_id: string }).rate_card_id),
  );

  app.get(
    '/v1/ops/rate-cards/:rate_card_id/versions/:version',
    {
      config: read,
      schema: {
        operationId: 'getRateCardVersion',
        tags,
        summary: 'Get a version (its id, its semantic_version, or current): the document publish accepts unchanged',
        params: VersionParams,
        response: { 200: RateCardVersionSchema },
      },
    },
    async (request) => {
      const p = request.params as Static<typeof VersionParams>;
      return getVersion(app.db, request.principal.teamId, p.rate_card_id, p.version, new Date(app.now()));
    },
  );

  app.post(
    '/v1/ops/rate-cards/versions',
    {
      config: write,
      schema: {
        operationId: 'publishRateCardVersion',
        tags,
        summary: 'Publish a rate-card version (the card is made on its first version); 200 when this exact version exists',
        body: RateCardVersionSchema,
        response: { 201: RateCardVersionSchema, 200: RateCardVersionSchema },
      },
    },
    async (request, reply) => {
      const { view, created } = await publishVersion(
        app.db,
        request.principal.teamId,
        request.body as Static<typeof RateCardVersionSchema>,
      );
      return reply.code(created ? 201 : 200).send(view);
    },
  );

  app.post(
    '/v1/ops/rate-cards/:rate_card_id/test',
    {
      config: read,
      schema: {
        operationId: 'testRateCard',
        tags,
        summary: 'Price a sample billable event by the version in force (nothing is recorded)',
        params: CardParams,
        body: RateCardTestBody,
        response: { 200: RateCardTestResult },
      },
    },
    async (request) =>
      testRateCard(
        app.db,
        request.principal.teamId,
        (request.params as { rate_card_id: string }).rate_card_id,
        request.body as Static<typeof RateCardTestBody>,
        new Date(app.now()),
      ),
  );

  app.put(
    '/v1/ops/delegations/:delegation_id/rate-card-id',
    {
      config: write,
      schema: {
        operationId: 'linkDelegationRateCard',
        tags,
        summary: 'Point a delegation at a versioned rate card (null: back to its JSON card)',
        params: IdParams('delegation_id'),
        body: DelegationRateCardLinkBody,
        response: { 200: DelegationSchema },
      },
    },
    async (request) => {
      const { delegation_id } = request.params as { delegation_id: string };
      const { rate_card_id } = request.body as Static<typeof DelegationRateCardLinkBody>;
      return delegationView(await linkDelegation(app.db, request.principal.teamId, delegation_id, rate_card_id));
    },
  );

  app.post(
    '/v1/ops/charges/ad-hoc',
    {
      config: write,
      schema: {
        operationId: 'createAdHocCharge',
        tags,
        summary: 'Charge a merchant for ad-hoc work or receiving hours, with a note (priced by the card or at unit_amount)',
        body: AdHocChargeBody,
        response: { 201: ChargeSchema, 200: ChargeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof AdHocChargeBody>;
      const { charge, created } = await addAdHocCharge(app.db, request.principal.teamId, body, new Date(app.now()));
      return reply.code(created ? 201 : 200).send(chargeView(charge));
    },
  );
}
