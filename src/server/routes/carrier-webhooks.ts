import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import { receiveCarrierWebhook } from '../../domain/fulfillment/index.js';
import { IdParams } from '../../contract/common.js';
import { CarrierWebhookAck } from '../../contract/carrier-integrations.js';

// Carrier platforms post tracker and refund events here (docs/carriers.md). No API key: the
// platform's signature over the raw body authenticates it, so this scope keeps the body as
// received (the signature covers the exact bytes) and parses it only after verification.

const Params = IdParams('integration_id');
const Query = Type.Object({
  shippo_token: Type.Optional(
    Type.String({ maxLength: 500, description: 'Shippo self-generated token on the webhook URL (instead of HMAC); redacted from logs' }),
  ),
});

export default async function routes(app: FastifyInstance) {
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: Static<typeof Params>; Querystring: Static<typeof Query> }>(
      '/v1/carriers/:integration_id/webhooks',
      {
        config: { public: true },
        schema: {
          operationId: 'receiveCarrierWebhook',
          tags: ['Carriers'],
          summary: 'Tracker and refund events from EasyPost (X-Hmac-Signature) or Shippo (Shippo-Auth-Signature, or ?shippo_token=)',
          description:
            'A bad or missing signature is a 401 and changes nothing. Tracking events are recorded once each and move the ' +
            "label's shipment_status (PRE_TRANSIT, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, RETURN_TO_SENDER, FAILURE), emitting " +
            'shipment.status_changed; refund events move refund_status to REFUNDED or REJECTED.',
          params: Params,
          querystring: Query,
          response: { 200: CarrierWebhookAck },
        },
      },
      async (request) =>
        receiveCarrierWebhook(app.db, request.params.integration_id, {
          body: typeof request.body === 'string' ? request.body : '',
          headers: request.headers,
          token: request.query.shippo_token,
        }),
    );
  });
}
