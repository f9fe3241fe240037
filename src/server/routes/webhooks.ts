import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { IdParams, listOf } from '../schemas/common.js';
import {
  CreatedWebhookSchema, DeliveryListQuery, DeliverySchema, WebhookCreateBody, WebhookListQuery, WebhookListSchema,
  WebhookPatchBody, WebhookSchema,
} from '../schemas/webhooks.js';
import {
  createEndpoint, deleteEndpoint, deliveryView, endpointView, getEndpoint, listDeliveries, listEndpoints, updateEndpoint,
} from '../../domain/webhooks/endpoints.js';

const tags = ['Webhooks'];
// No path family: fulfiller and merchant teams both manage their own endpoints.
const manage = { permission: 'MANAGE_WEBHOOKS' } as const;
const WebhookParams = IdParams('webhook_id');

/** Webhook endpoints (spec §6; shape and signature scheme: docs/webhooks.md). */
export default async function routes(app: FastifyInstance) {
  app.get('/v1/webhooks', {
    config: manage,
    schema: {
      operationId: 'listWebhooks', tags, summary: 'List webhook endpoints (secrets are never shown)',
      querystring: WebhookListQuery, response: { 200: WebhookListSchema },
    },
  }, async (request) => {
    const page = await listEndpoints(app.db, request.principal.teamId, request.query as Static<typeof WebhookListQuery>);
    return { data: page.data.map(endpointView), meta: page.meta };
  });

  app.post('/v1/webhooks', {
    config: manage,
    schema: {
      operationId: 'createWebhook', tags, summary: 'Create a webhook endpoint; the signing secret is returned once',
      body: WebhookCreateBody, response: { 201: CreatedWebhookSchema },
    },
  }, async (request, reply) =>
    reply.code(201).send(await createEndpoint(app.db, request.principal.teamId, request.body as Static<typeof WebhookCreateBody>, { allowPrivate: app.allowPrivateWebhooks })));

  app.get('/v1/webhooks/:webhook_id', {
    config: manage,
    schema: { operationId: 'getWebhook', tags, summary: 'Get a webhook endpoint', params: WebhookParams, response: { 200: WebhookSchema } },
  }, async (request) => {
    const { webhook_id } = request.params as Static<typeof WebhookParams>;
    return endpointView(await getEndpoint(app.db, request.principal.teamId, webhook_id));
  });

  app.patch('/v1/webhooks/:webhook_id', {
    config: manage,
    schema: {
      operationId: 'updateWebhook', tags, summary: 'Change url, events, description or active',
      params: WebhookParams, body: WebhookPatchBody, response: { 200: WebhookSchema },
    },
  }, async (request) => {
    const { webhook_id } = request.params as Static<typeof WebhookParams>;
    const body = request.body as Static<typeof WebhookPatchBody>;
    return endpointView(await updateEndpoint(app.db, request.principal.teamId, webhook_id, body, { allowPrivate: app.allowPrivateWebhooks }));
  });

  app.delete('/v1/webhooks/:webhook_id', {
    config: manage,
    schema: {
      operationId: 'deleteWebhook', tags, summary: 'Delete a webhook endpoint and its delivery history', params: WebhookParams,
      response: { 204: { type: 'null', description: 'Deleted' } },
    },
  }, async (request, reply) => {
    const { webhook_id } = request.params as Static<typeof WebhookParams>;
    await deleteEndpoint(app.db, request.principal.teamId, webhook_id);
    return reply.code(204).send();
  });

  app.get('/v1/webhooks/:webhook_id/deliveries', {
    config: manage,
    schema: {
      operationId: 'listWebhookDeliveries', tags, summary: 'List deliveries to an endpoint, newest first',
      params: WebhookParams, querystring: DeliveryListQuery, response: { 200: listOf(DeliverySchema) },
    },
  }, async (request) => {
    const { webhook_id } = request.params as Static<typeof WebhookParams>;
    const page = await listDeliveries(app.db, request.principal.teamId, webhook_id, request.query as Static<typeof DeliveryListQuery>);
    return { data: page.data.map(deliveryView), meta: page.meta };
  });
}
