import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { IdParams, listOf } from '../../contract/common.js';
import { pollEvents, triggerEvent } from '../../domain/webhooks/index.js';
import {
  CreatedWebhookSchema,
  DeliveryListQuery,
  EventPollQuery,
  EventPollSchema,
  StreamEventSchema,
  TriggerEventBody,
  DeliverySchema,
  WebhookCreateBody,
  WebhookListQuery,
  WebhookListSchema,
  WebhookPatchBody,
  WebhookSchema,
} from '../../contract/webhooks.js';
import {
  createEndpoint,
  deleteEndpoint,
  deliveryView,
  endpointView,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
} from '../../domain/webhooks/index.js';

const tags = ['Webhooks'];
// No path family: fulfiller and merchant teams both manage their own endpoints.
const manage = { permission: 'MANAGE_WEBHOOKS' } as const;
const WebhookParams = IdParams('webhook_id');

/** Webhook endpoints (spec §6; shape and signature scheme: docs/webhooks.md). */
export default async function routes(app: FastifyInstance) {
  app.get(
    '/v1/webhooks',
    {
      config: manage,
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: 'List webhook endpoints (secrets are never shown)',
        querystring: WebhookListQuery,
        response: { 200: WebhookListSchema },
      },
    },
    async (request) => {
      const page = await listEndpoints(app.db, request.principal.teamId, request.query as Static<typeof WebhookListQuery>);
      return { data: page.data.map(endpointView), meta: page.meta };
    },
  );

  app.post(
    '/v1/webhooks',
    {
      config: manage,
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Create a webhook endpoint; the signing secret is returned once',
        body: WebhookCreateBody,
        response: { 201: CreatedWebhookSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        await createEndpoint(app.db, request.principal.teamId, request.body as Static<typeof WebhookCreateBody>, {
          allowPrivate: app.allowPrivateWebhooks,
        }),
      ),
  );

  // Before /:webhook_id: `events` is not an id.
  app.get(
    '/v1/webhooks/events',
    {
      config: manage,
      schema: {
        operationId: 'pollWebhookEvents',
        tags,
        summary: "The team's events after a cursor, waiting for one (long poll; fos webhooks listen)",
        description:
          "Read from the database's outbox, so any replica answers with every event. Events come oldest first, " +
          'in the shape webhook deliveries carry ({id, type, created_at, data}); pass meta.next_after as `after` next time.',
        querystring: EventPollQuery,
        response: { 200: EventPollSchema },
      },
    },
    async (request) => pollEvents(app.db, request.principal.teamId, request.query as Static<typeof EventPollQuery>),
  );

  app.post(
    '/v1/webhooks/events',
    {
      config: manage,
      schema: {
        operationId: 'triggerWebhookEvent',
        tags,
        summary: 'Send a sample event of a type (fos webhooks trigger)',
        description:
          'Written to the outbox like real events: delivered to the endpoints subscribed to it and seen by listeners. Its data has sample: true.',
        body: TriggerEventBody,
        response: { 201: StreamEventSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await triggerEvent(app.db, request.principal.teamId, (request.body as Static<typeof TriggerEventBody>).type)),
  );

  app.get(
    '/v1/webhooks/:webhook_id',
    {
      config: manage,
      schema: {
        operationId: 'getWebhook',
        tags,
        summary: 'Get a webhook endpoint',
        params: WebhookParams,
        response: { 200: WebhookSchema },
      },
    },
    async (request) => {
      const { webhook_id } = request.params as Static<typeof WebhookParams>;
      return endpointView(await getEndpoint(app.db, request.principal.teamId, webhook_id));
    },
  );

  app.patch(
    '/v1/webhooks/:webhook_id',
    {
      config: manage,
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change url, events, description or active',
        params: WebhookParams,
        body: WebhookPatchBody,
        response: { 200: WebhookSchema },
      },
    },
    async (request) => {
      const { webhook_id } = request.params as Static<typeof WebhookParams>;
      const body = request.body as Static<typeof WebhookPatchBody>;
      return endpointView(
        await updateEndpoint(app.db, request.principal.teamId, webhook_id, body, { allowPrivate: app.allowPrivateWebhooks }),
      );
    },
  );

  app.delete(
    '/v1/webhooks/:webhook_id',
    {
      config: manage,
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook endpoint and its delivery history',
        params: WebhookParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      const { webhook_id } = request.params as Static<typeof WebhookParams>;
      await deleteEndpoint(app.db, request.principal.teamId, webhook_id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v1/webhooks/:webhook_id/deliveries',
    {
      config: manage,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'List deliveries to an endpoint, newest first',
        params: WebhookParams,
        querystring: DeliveryListQuery,
        response: { 200: listOf(DeliverySchema) },
      },
    },
    async (request) => {
      const { webhook_id } = request.params as Static<typeof WebhookParams>;
      const page = await listDeliveries(app.db, request.principal.teamId, webhook_id, request.query as Static<typeof DeliveryListQuery>);
      return { data: page.data.map(deliveryView), meta: page.meta };
    },
  );
}
