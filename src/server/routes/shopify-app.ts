import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { familyOperationId } from './families.js';
import type { Static } from 'typebox';
import { NONCE_COOKIE, authorizeRedirect, completeInstall, installLink } from '../../connectors/channels/shopify/oauth.js';
import { registerFulfillmentService } from '../../connectors/channels/shopify/fulfillment-service.js';
import { getShop } from '../../domain/channels/index.js';
import { ShopParams, ShopSchema, ShopifyCallbackQuery, ShopifyInstallBody, ShopifyInstallSchema } from '../../contract/shops.js';

// Shopify's app flows (docs/sales-channels.md §2b, §2c): install links and the OAuth callback of
// the 3PL's distributed app, and registering fos as a shop's fulfillment service. The install
// and callback pages are public (a merchant's browser); the nonce cookie binds the callback to
// the browser that opened the install link.

const COOKIE_PATH = '/v1/channels/shopify';
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default async function routes(app: FastifyInstance) {
  await app.register(cookie); // this scope's only: the install nonce
  const env = () => ({ allowPrivate: app.allowPrivateWebhooks });
  for (const family of ['ops', 'merchant'] as const) {
    const base = `/v1/${family}/shops`;
    const config = { permission: 'MANAGE_SHOPS', family } as const;
    const op = (name: string) => familyOperationId(family, name);

    app.post<{ Body: Static<typeof ShopifyInstallBody> }>(
      `${base}/shopify/install`,
      {
        config,
        schema: {
          operationId: op('createShopifyInstallLink'),
          tags: ['Shops'],
          summary: "An install link of the server's Shopify app for a merchant's shop (OAuth)",
          description:
            'The merchant opens install_url: Shopify asks them to install the app, then redirects to redirect_uri, where fos checks ' +
            "the hmac, the state and the browser's nonce, exchanges the code for an offline token and creates (or updates) the shop. " +
            '422 when no app is configured (FOS_SHOPIFY_CLIENT_ID, FOS_SHOPIFY_CLIENT_SECRET).',
          body: ShopifyInstallBody,
          response: { 201: ShopifyInstallSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await installLink(app.db, request.principal, request.body, app.shopifyApp, app.originOf(request))),
    );

    app.post<{ Params: Static<typeof ShopParams> }>(
      `${base}/:shop_id/fulfillment-service`,
      {
        config,
        schema: {
          operationId: op('registerFulfillmentService'),
          tags: ['Shops'],
          summary: 'Register fos as the Shopify shop’s fulfillment service (fulfillmentServiceCreate)',
          description:
            'Shopify makes a location for the service; fulfillment orders assigned to it reach fos as fulfillment requests at ' +
            '<callback_url>/fulfillment_order_notification. Idempotent: a registered shop answers its service again.',
          params: ShopParams,
          response: { 200: ShopSchema },
        },
      },
      async (request) => {
        await registerFulfillmentService(app.db, request.principal, request.params.shop_id, app.originOf(request), env());
        return getShop(app.db, request.principal, request.params.shop_id);
      },
    );
  }

  app.get<{ Querystring: { state?: string } }>(
    '/v1/channels/shopify/install',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const r = authorizeRedirect(request.query.state, app.shopifyApp, app.originOf(request));
      const secure = app.originOf(request).startsWith('https:');
      reply.setCookie(NONCE_COOKIE, r.nonce, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge: 3600 });
      return reply.redirect(r.location, 302);
    },
  );

  app.get<{ Querystring: Static<typeof ShopifyCallbackQuery> }>(
    '/v1/channels/shopify/callback',
    { config: { public: true }, schema: { hide: true, querystring: ShopifyCallbackQuery } },
    async (request, reply) => {
      const r = await completeInstall(
        app.db,
        request.query as Record<string, string>,
        request.cookies[NONCE_COOKIE],
        app.shopifyApp,
        env(),
      );
      reply.clearCookie(NONCE_COOKIE, { path: COOKIE_PATH });
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          `<!doctype html><html><head><meta charset="utf-8"><title>Connected</title></head><body>` +
            `<h1>${escape(r.shop_domain)} is connected to fos</h1><p>Shop id: <code>${escape(r.shop_id)}</code>. You can close this page.</p></body></html>`,
        );
    },
  );
}
