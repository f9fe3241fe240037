import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { connectorFor, receiveChannelWebhook, receiveFulfillmentNotification } from '../../domain/channels/index.js';
import { FulfillmentNotificationAnswer, ShopParams, WebhookAnswerSchema } from '../../contract/shops.js';
import { withDeadline } from '../../net/deadlines.js';

// Platform webhooks (docs/sales-channels.md). No API key: the platform's signature over the raw
// body is the authentication, so this scope keeps every body as raw bytes (any content type)
// and the domain verifies them before anything is parsed or stored.

/** A platform's webhook topics, as its connector subscribes to them (one source for the description). */
const topics = (platform: string) => connectorFor(platform).webhooks.topics.join(', ');

export default async function routes(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post<{ Params: Static<typeof ShopParams> }>(
    '/v1/channels/:shop_id/webhooks',
    {
      config: { public: true },
      schema: {
        operationId: 'receiveChannelWebhook',
        tags: ['Shops'],
        summary: "Receive a shop platform's webhook: Shopify, WooCommerce or BigCommerce (signed, no API key)",
        description:
          "Accepted only when the delivery proves the shop's webhook secret: X-Shopify-Hmac-Sha256 or X-WC-Webhook-Signature is the " +
          'base64 HMAC-SHA256 of the raw body with it, or (BigCommerce, which signs nothing) the X-Fos-Webhook-Secret header fos ' +
          'registered with the hook carries it; otherwise 401 and nothing changes. ' +
          `Topics: ${topics('SHOPIFY')} (X-Shopify-Topic); ${topics('WOOCOMMERCE')} (X-WC-Webhook-Topic); ${topics('BIGCOMMERCE')} ` +
          "(the body's scope). Amazon, eBay and Etsy send fos no webhooks (their orders come by sync): a delivery to such a shop is 401. " +
          'A payload fos does not understand is stored, answered 200 and marked FAILED.',
        params: ShopParams,
        response: { 200: WebhookAnswerSchema },
      },
    },
    // Shopify gives a webhook 5 s: the handler waits on a platform (a new order's address check)
    // at most FOS_DEADLINE_INTAKE_MS (3 s); a slower check goes on in the background (intake.ts).
    async (request) =>
      withDeadline('intake', () =>
        receiveChannelWebhook(
          app.db,
          request.params.shop_id,
          request.headers,
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          { allowPrivate: app.allowPrivateWebhooks },
        ),
      ),
  );

  app.post<{ Params: Static<typeof ShopParams> }>(
    '/v1/channels/:shop_id/fulfillment-service/fulfillment_order_notification',
    {
      config: { public: true },
      schema: {
        operationId: 'receiveFulfillmentNotification',
        tags: ['Shops'],
        summary: "Receive Shopify's fulfillment-service notification (signed, no API key)",
        description:
          'Shopify calls <callbackUrl>/fulfillment_order_notification with {"kind": "FULFILLMENT_REQUEST" | "CANCELLATION_REQUEST"}, ' +
          "signed like a webhook (X-Shopify-Hmac-Sha256 with the app's secret). fos reads the pending requests of that kind " +
          '(assignedFulfillmentOrders) and answers each: accepted (a fos order is made) or rejected with the reason; ' +
          'a cancellation is accepted while nothing is packed, rejected once packing started.',
        params: ShopParams,
        response: { 200: FulfillmentNotificationAnswer },
      },
    },
    async (request) =>
      withDeadline('intake', () =>
        receiveFulfillmentNotification(
          app.db,
          request.params.shop_id,
          request.headers,
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          { allowPrivate: app.allowPrivateWebhooks },
        ),
      ),
  );
}
