import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import {
  authCallback,
  awaitStore,
  loadCallback,
  removeUserCallback,
  uninstallCallback,
} from '../../connectors/channels/bigcommerce/app.js';
import { DomainError } from '../../domain/errors.js';
import { statusOf } from '../problem.js';
import {
  BigCommerceAppBody,
  BigCommerceAppSchema,
  BigCommerceAuthQuery,
  BigCommerceRemoveUserSchema,
  BigCommerceSignedQuery,
  BigCommerceUninstallSchema,
} from '../../contract/shops.js';

// The 3PL's BigCommerce single-click app (docs/sales-channels.md §3b, the 3PL's app): a person names a merchant's
// store for its team (MANAGE_SHOPS); BigCommerce then calls auth and load from the merchant's
// browser, inside the control panel's iframe (answered with a page, a refusal too), and
// uninstall and remove_user from its server (answered with JSON). The callbacks are public: each is checked by
// what BigCommerce alone can make (a code its token endpoint takes, a JWT signed with the secret).

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// No frame-ancestors: the control panel frames these pages. Nothing runs in them.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:42rem}dt{font-weight:600}</style></head>` +
        `<body><h1>${escape(title)}</h1>${body}</body></html>`,
    );
}

/** A browser callback's refusal as a page with the problem's status (the iframe shows no JSON well). */
async function asPage(reply: FastifyReply, run: () => Promise<unknown>) {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return page(reply, statusOf(err.kind), 'fos refused this BigCommerce request', `<p>${escape(err.message)}</p>`);
  }
}

type ShopView = Awaited<ReturnType<typeof loadCallback>>;
function statusList(shop: ShopView) {
  const h = shop.health;
  const rows: [string, string][] = [
    ['Shop', shop.name],
    ['Store hash', shop.connection?.shop_domain ?? ''],
    ['App', shop.settings?.app_install?.status ?? 'not installed by the app'],
    ['Receiving orders', shop.active ? 'yes' : 'no'],
    ['Last sync', h?.last_sync_at ? new Date(h.last_sync_at).toISOString() : 'not yet'],
    ['Webhooks received', String(h?.webhooks_received ?? 0)],
    ['Failed deliveries / pushes', `${h?.failed_deliveries ?? 0} / ${h?.failed_pushes ?? 0}`],
    ['Last error', h?.last_error ?? 'none'],
  ];
  return `<dl>${rows.map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v)}</dd>`).join('')}</dl>`;
}

export default async function routes(app: FastifyInstance) {
  const env = () => ({ allowPrivate: app.allowPrivateWebhooks });
  for (const family of ['ops', 'merchant'] as const) {
    const op = family === 'ops' ? 'awaitBigCommerceInstall' : 'merchantAwaitBigCommerceInstall';
    app.post<{ Body: Static<typeof BigCommerceAppBody> }>(
      `/v1/${family}/shops/bigcommerce/app`,
      {
        config: { permission: 'MANAGE_SHOPS', family },
        schema: {
          operationId: op,
          tags: ['Shops'],
          summary: "Name a merchant's BigCommerce store for the server's app: its shop awaits the install",
          description:
            'The shop is made (inactive, no token) for the merchant team; when the merchant installs the app, BigCommerce calls ' +
            'auth_callback_url and fos connects it. Only a store named this way is taken by an install. Named again: the wait ' +
            'starts over. 409 when another merchant team has the store; 422 when no app is configured ' +
            '(FOS_BIGCOMMERCE_CLIENT_ID, FOS_BIGCOMMERCE_CLIENT_SECRET).',
          body: BigCommerceAppBody,
          response: { 201: BigCommerceAppSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await awaitStore(app.db, request.principal, request.body, app.bigcommerceApp, app.originOf(request))),
    );
  }

  const hidden = (querystring: object) => ({ config: { public: true }, schema: { hide: true, querystring } });

  app.get<{ Querystring: Static<typeof BigCommerceAuthQuery> }>(
    '/v1/channels/bigcommerce/auth',
    hidden(BigCommerceAuthQuery),
    (request, reply) =>
      asPage(reply, async () => {
        const r = await authCallback(app.db, request.query, app.bigcommerceApp, app.originOf(request), env());
        const title = r.first ? `${r.shop.name} is connected to fos` : `${r.shop.name}: the app's access was renewed`;
        return page(reply, 200, title, statusList(r.shop));
      }),
  );

  app.get<{ Querystring: Static<typeof BigCommerceSignedQuery> }>(
    '/v1/channels/bigcommerce/load',
    hidden(BigCommerceSignedQuery),
    (request, reply) =>
      asPage(reply, async () => {
        const shop = await loadCallback(app.db, request.query, app.bigcommerceApp);
        return page(reply, 200, `${shop.name} in fos`, statusList(shop));
      }),
  );

  app.get<{ Querystring: Static<typeof BigCommerceSignedQuery> }>(
    '/v1/channels/bigcommerce/uninstall',
    {
      config: { public: true },
      schema: { hide: true, querystring: BigCommerceSignedQuery, response: { 200: BigCommerceUninstallSchema } },
    },
    async (request) => uninstallCallback(app.db, request.query, app.bigcommerceApp),
  );

  // A user of a multi-user app lost access: fos keeps nothing per user (app.ts), so it only says so.
  app.get<{ Querystring: Static<typeof BigCommerceSignedQuery> }>(
    '/v1/channels/bigcommerce/remove_user',
    {
      config: { public: true },
      schema: { hide: true, querystring: BigCommerceSignedQuery, response: { 200: BigCommerceRemoveUserSchema } },
    },
    async (request) => {
      const r = await removeUserCallback(app.db, request.query, app.bigcommerceApp);
      request.log.info(
        { store_hash: r.store_hash, shop_id: r.shop_id },
        'bigcommerce app: a user was removed from the app; nothing to change',
      );
      return r;
    },
  );
}
