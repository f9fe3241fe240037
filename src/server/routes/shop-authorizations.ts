import type { FastifyInstance, FastifyReply } from 'fastify';
import { familyOperationId } from './families.js';
import type { Static } from 'typebox';
import { authorizations } from '../../domain/channels/index.js';
import { DomainError } from '../../domain/errors.js';
import { UnauthLimiter } from '../rate-limit/unauth.js';
import { esc, sendPage } from '../oauth/html.js';
import { statusOf } from '../problem.js';
import {
  CreatedShopAuthorizationSchema,
  EtsyAuthorizationBody,
  EtsyCallbackQuery,
  ShopAuthorizationParams,
  ShopAuthorizationSchema,
} from '../../contract/shop-authorizations.js';

// A seller's consent through fos (docs/sales-channels.md §3e step 2): a person with MANAGE_SHOPS
// starts an Etsy authorization and follows its status; Etsy sends the seller's browser back to
// the public callback, answered with a page (a refusal too: a person reads it, not a program).
// The callback's only credential is the state: an address sending states fos never gave out is
// refused for a while, as failed sign-ins are (rate-limit/unauth.ts).

const UNKNOWN_STATES_PER_MINUTE = 20;

const page = (reply: FastifyReply, status: number, title: string, body: string) =>
  sendPage(reply, title, `<div class="card"><h1>${esc(title)}</h1>${body}</div>`, { status });

export default async function routes(app: FastifyInstance) {
  const env = () => ({ allowPrivate: app.allowPrivateWebhooks });
  for (const family of ['ops', 'merchant'] as const) {
    const base = `/v1/${family}/shops/etsy/authorizations`;
    const config = { permission: 'MANAGE_SHOPS', family } as const;
    const op = (name: string) => familyOperationId(family, name);

    app.post<{ Body: Static<typeof EtsyAuthorizationBody> }>(
      base,
      {
        config,
        schema: {
          operationId: op('createEtsyAuthorization'),
          tags: ['Shops'],
          summary: "Start connecting an Etsy shop with the seller's consent (OAuth 2.0 with PKCE)",
          description:
            'The seller opens authorize_url signed in to Etsy and grants the app access; Etsy sends the browser to redirect_uri ' +
            '(register it as a callback URL of the Etsy app), where fos exchanges the code with the PKCE verifier, checks the ' +
            'connection and creates the shop with its refresh token sealed. Follow status with the GET; it expires after 15 minutes. ' +
            '409 when the merchant team has a shop of that name.',
          body: EtsyAuthorizationBody,
          response: { 201: CreatedShopAuthorizationSchema },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await authorizations.startAuthorization(
              app.db,
              request.principal,
              'ETSY',
              request.body,
              app.originOf(request),
              env(),
              app.now(),
            ),
          ),
    );

    app.get<{ Params: Static<typeof ShopAuthorizationParams> }>(
      `${base}/:authorization_id`,
      {
        config,
        schema: {
          operationId: op('getEtsyAuthorization'),
          tags: ['Shops'],
          summary: 'An Etsy authorization: PENDING, CONNECTED (with the shop id), FAILED (with the reason) or EXPIRED',
          params: ShopAuthorizationParams,
          response: { 200: ShopAuthorizationSchema },
        },
      },
      async (request) => authorizations.getAuthorization(app.db, request.principal, request.params.authorization_id, app.now()),
    );
  }

  const unknownStates = new UnauthLimiter(UNKNOWN_STATES_PER_MINUTE);
  app.get<{ Querystring: Static<typeof EtsyCallbackQuery> }>(
    '/v1/channels/etsy/callback',
    { config: { public: true }, schema: { hide: true, querystring: EtsyCallbackQuery } },
    async (request, reply) => {
      const now = app.clock();
      const wait = unknownStates.retryAfter(request.ip, now);
      if (wait) {
        reply.header('retry-after', wait);
        return page(
          reply,
          429,
          'Too many attempts',
          `<p>Too many unknown authorization links from this address; try again in ${wait} s.</p>`,
        );
      }
      try {
        const r = await authorizations.completeAuthorization(app.db, 'ETSY', request.query, env(), app.now());
        if (!r.connected) return page(reply, 200, `${r.name} was not connected`, `<p>${esc(r.message)}</p><p>You can close this page.</p>`);
        request.log.info({ shop_id: r.shop_id }, 'Etsy shop connected by the seller’s consent');
        return page(
          reply,
          200,
          `${r.name} is connected to fos`,
          `<p>Shop id: <code>${esc(r.shop_id)}</code>. fos takes its receipts by sync from now on. You can close this page.</p>`,
        );
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        if (err instanceof authorizations.UnknownStateError) unknownStates.fail(request.ip, now);
        return page(reply, statusOf(err.kind), 'fos could not connect this Etsy shop', `<p>${esc(err.message)}</p>`);
      }
    },
  );
}
