import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { integrations } from '../../../domain/carrier-integrations/index.js';
import { testIntegration } from '../../../domain/carrier-integrations/index.js';
import { verifyOrderAddress } from '../../../domain/carrier-integrations/index.js';
import { OrderSchema } from '../../../contract/orders.js';
import { listTrackingEvents } from '../../../domain/fulfillment/index.js';
import { IdParams } from '../../../contract/common.js';
import {
  CarrierIntegrationCreateBody,
  CarrierIntegrationListQuery,
  CarrierIntegrationListSchema,
  CarrierIntegrationPatchBody,
  CarrierIntegrationSchema,
  CarrierIntegrationTestSchema,
  TrackingEventListQuery,
  TrackingEventListSchema,
} from '../../../contract/carrier-integrations.js';

// Carrier integrations (docs/carriers.md): EasyPost and Shippo accounts, and the rate table.
// Credentials go in, never out. Tracking history of a package's label.

const tags = ['Carriers'];
const read = { permission: 'READ_FULFILLMENTS', family: 'ops' } as const;
// Connecting, changing, testing and removing an integration handles the team's carrier
// credentials: MANAGE_CARRIERS (an extension, docs/access.md), never a picker's WRITE_FULFILLMENTS.
const write = { permission: 'MANAGE_CARRIERS', family: 'ops' } as const;
const Params = IdParams('integration_id');
type P = Static<typeof Params>;

export default async function routes(app: FastifyInstance) {
  const policy = () => ({ allowPrivate: app.allowPrivateWebhooks });

  app.get<{ Querystring: Static<typeof CarrierIntegrationListQuery> }>(
    '/v1/ops/carrier-integrations',
    {
      config: read,
      schema: {
        operationId: 'listCarrierIntegrations',
        tags,
        summary: 'List carrier integrations (credentials are never shown)',
        querystring: CarrierIntegrationListQuery,
        response: { 200: CarrierIntegrationListSchema },
      },
    },
    async (request) => integrations.listIntegrations(app.db, request.principal.teamId, request.query),
  );

  app.post<{ Body: Static<typeof CarrierIntegrationCreateBody> }>(
    '/v1/ops/carrier-integrations',
    {
      config: write,
      schema: {
        operationId: 'createCarrierIntegration',
        tags,
        summary: 'Connect a carrier platform account (EASYPOST, SHIPPO) or the rate table (TABLE)',
        description:
          'credentials { api_key, webhook_secret? } are sealed at rest and never returned. api_base_url defaults to the ' +
          "platform's real address; a loopback or private one needs fos serve --allow-private-webhooks. warehouse_ids limits the " +
          'warehouses it serves (default all); enabled_carriers the carriers kept from its rates.',
        body: CarrierIntegrationCreateBody,
        response: { 201: CarrierIntegrationSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await integrations.createIntegration(app.db, request.principal.teamId, request.body, policy())),
  );

  app.get<{ Params: P }>(
    '/v1/ops/carrier-integrations/:integration_id',
    {
      config: read,
      schema: {
        operationId: 'getCarrierIntegration',
        tags,
        summary: 'Get a carrier integration',
        params: Params,
        response: { 200: CarrierIntegrationSchema },
      },
    },
    async (request) => integrations.getIntegration(app.db, request.principal.teamId, request.params.integration_id),
  );

  app.patch<{ Params: P; Body: Static<typeof CarrierIntegrationPatchBody> }>(
    '/v1/ops/carrier-integrations/:integration_id',
    {
      config: write,
      schema: {
        operationId: 'updateCarrierIntegration',
        tags,
        summary: 'Change a carrier integration (name, credentials, api_base_url, warehouses, carriers, enabled)',
        params: Params,
        body: CarrierIntegrationPatchBody,
        response: { 200: CarrierIntegrationSchema },
      },
    },
    async (request) =>
      integrations.updateIntegration(app.db, request.principal.teamId, request.params.integration_id, request.body, policy()),
  );

  app.post<{ Params: P }>(
    '/v1/ops/carrier-integrations/:integration_id/disable',
    {
      config: write,
      schema: {
        operationId: 'disableCarrierIntegration',
        tags,
        summary: 'Stop rating and buying through an integration (credentials kept)',
        params: Params,
        response: { 200: CarrierIntegrationSchema },
      },
    },
    async (request) =>
      integrations.updateIntegration(app.db, request.principal.teamId, request.params.integration_id, { enabled: false }, policy()),
  );

  app.delete<{ Params: P }>(
    '/v1/ops/carrier-integrations/:integration_id',
    {
      config: write,
      schema: {
        operationId: 'disconnectCarrierIntegration',
        tags,
        summary: 'Disconnect: disable and erase the credentials (its labels stay)',
        params: Params,
        response: { 200: CarrierIntegrationSchema },
      },
    },
    async (request) => integrations.disconnectIntegration(app.db, request.principal.teamId, request.params.integration_id),
  );

  app.post<{ Params: P }>(
    '/v1/ops/carrier-integrations/:integration_id/test',
    {
      config: write,
      schema: {
        operationId: 'testCarrierIntegration',
        tags,
        summary: "One real call with the integration's key; 409 naming the cause when it fails",
        params: Params,
        response: { 200: CarrierIntegrationTestSchema },
      },
    },
    async (request) => testIntegration(app.db, request.principal.teamId, request.params.integration_id, policy()),
  );

  const OrderParams = IdParams('order_id');
  app.post<{ Params: Static<typeof OrderParams> }>(
    '/v1/ops/orders/:order_id/verify-address',
    {
      config: { permission: 'WRITE_ORDERS', family: 'ops' },
      schema: {
        operationId: 'verifyOrderAddress',
        tags,
        summary: "Verify the order's shipping address through the team's EasyPost integration",
        description:
          'Fills address_verified, address_residential, address_verified_at, address_hash and address_verification_response; ' +
          'a failing address puts the order on an ADDRESS_VERIFICATION_FAILED hold. Cached by address_hash (an unchanged address costs ' +
          'no call); a locked address (lock_address) is left as it is. Without an EasyPost integration nothing changes.',
        params: OrderParams,
        response: { 200: OrderSchema },
      },
    },
    async (request) => verifyOrderAddress(app.db, request.principal.teamId, request.params.order_id, policy()),
  );

  const PackageParams = IdParams('package_id');
  app.get<{ Params: Static<typeof PackageParams>; Querystring: Static<typeof TrackingEventListQuery> }>(
    '/v1/ops/packages/:package_id/tracking-events',
    {
      config: read,
      schema: {
        operationId: 'listPackageTrackingEvents',
        tags,
        summary: "Tracking history of a package's label (oldest first), as its carrier platform reported it",
        params: PackageParams,
        querystring: TrackingEventListQuery,
        response: { 200: TrackingEventListSchema },
      },
    },
    async (request) => listTrackingEvents(app.db, request.principal.teamId, request.params.package_id, request.query),
  );
}
