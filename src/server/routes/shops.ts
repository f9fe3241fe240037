import type { FastifyInstance } from 'fastify';
import { familyOperationId } from './families.js';
import type { Static } from 'typebox';
import { shops } from '../../domain/channels/index.js';
import { listDeliveries, replayDelivery } from '../../domain/channels/index.js';
import { syncShop } from '../../domain/channels/index.js';
import { listOf } from '../../contract/common.js';
import {
  ChannelDeliverySchema,
  CheckSchema,
  CreateShopBody,
  DeletedShopSchema,
  DeliveryListQuery,
  DeliveryParams,
  ShopListQuery,
  ShopParams,
  ShopSchema,
  SyncBody,
  SyncSchema,
  UpdateShopBody,
} from '../../contract/shops.js';

// Shops and their platform connections (docs/sales-channels.md), in both path families: a
// fulfiller key manages the shops of its delegated merchants (/v1/ops/shops), a merchant key its
// own (/v1/merchant/shops). Same operations, same shapes; the family decides whose shops.

const tags = ['Shops'];
type Params = { Params: Static<typeof ShopParams> };

export default async function routes(app: FastifyInstance) {
  const env = () => ({ allowPrivate: app.allowPrivateWebhooks });
  for (const family of ['ops', 'merchant'] as const) {
    const base = `/v1/${family}/shops`;
    const config = { permission: 'MANAGE_SHOPS', family } as const;
    const op = (name: string) => familyOperationId(family, name);

    app.get<{ Querystring: Static<typeof ShopListQuery> }>(
      base,
      {
        config,
        schema: {
          operationId: op('listShops'),
          tags,
          summary: 'List shops with their connection health',
          querystring: ShopListQuery,
          response: { 200: listOf(ShopSchema) },
        },
      },
      async (request) => shops.listShops(app.db, request.principal, request.query),
    );

    app.post<{ Body: Static<typeof CreateShopBody> }>(
      base,
      {
        config,
        schema: {
          operationId: op('createShop'),
          tags,
          summary: 'Connect a shop (SHOPIFY, WOOCOMMERCE, BIGCOMMERCE, AMAZON, EBAY, ETSY) or add a MANUAL one',
          description:
            'The connection is checked with one real platform call first (Shopify shop { name }, WooCommerce GET system_status); ' +
            'a refusal is a 400 saying what is wrong and nothing is stored. Credentials are sealed and never returned.',
          body: CreateShopBody,
          response: { 201: ShopSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await shops.createShop(app.db, request.principal, request.body, { ...env(), origin: app.originOf(request) })),
    );

    app.get<Params>(
      `${base}/:shop_id`,
      {
        config,
        schema: {
          operationId: op('getShop'),
          tags,
          summary: 'Get a shop and its connection health',
          params: ShopParams,
          response: { 200: ShopSchema },
        },
      },
      async (request) => shops.getShop(app.db, request.principal, request.params.shop_id),
    );

    app.patch<Params & { Body: Static<typeof UpdateShopBody> }>(
      `${base}/:shop_id`,
      {
        config,
        schema: {
          operationId: op('updateShop'),
          tags,
          summary: 'Rename, disable/enable, change credentials or settings',
          description: 'Changed connection fields are checked with one real call before they are stored.',
          params: ShopParams,
          body: UpdateShopBody,
          response: { 200: ShopSchema },
        },
      },
      async (request) =>
        shops.updateShop(app.db, request.principal, request.params.shop_id, request.body, { ...env(), origin: app.originOf(request) }),
    );

    app.delete<Params>(
      `${base}/:shop_id`,
      {
        config,
        schema: {
          operationId: op('deleteShop'),
          tags,
          summary: 'Disconnect a shop (and delete it when no order names it)',
          params: ShopParams,
          response: { 200: DeletedShopSchema },
        },
      },
      async (request) => shops.deleteShop(app.db, request.principal, request.params.shop_id, env(), request.log),
    );

    app.post<Params>(
      `${base}/:shop_id/check`,
      {
        config,
        schema: {
          operationId: op('checkShop'),
          tags,
          summary: 'Check the connection with one real platform call',
          params: ShopParams,
          response: { 200: CheckSchema },
        },
      },
      async (request) => shops.checkShop(app.db, request.principal, request.params.shop_id, env()),
    );

    app.post<Params & { Body: Static<typeof SyncBody> }>(
      `${base}/:shop_id/sync`,
      {
        config,
        // The body is optional: no body is the same as {}.
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
        schema: {
          operationId: op('syncShop'),
          tags,
          summary: 'Pull listings and orders from the platform now',
          description:
            'Orders updated since `since` (default: since the last sync; the first sync takes every open order) go through the same idempotent intake as webhooks.',
          params: ShopParams,
          body: SyncBody,
          response: { 200: SyncSchema },
        },
      },
      async (request) => syncShop(app.db, request.principal, request.params.shop_id, request.body?.since, env()),
    );

    app.get<Params & { Querystring: Static<typeof DeliveryListQuery> }>(
      `${base}/:shop_id/deliveries`,
      {
        config,
        schema: {
          operationId: op('listShopDeliveries'),
          tags,
          summary: 'Platform webhook deliveries received for a shop, newest first',
          params: ShopParams,
          querystring: DeliveryListQuery,
          response: { 200: listOf(ChannelDeliverySchema) },
        },
      },
      async (request) => listDeliveries(app.db, request.principal, request.params.shop_id, request.query),
    );

    app.post<{ Params: Static<typeof DeliveryParams> }>(
      `${base}/:shop_id/deliveries/:delivery_id/replay`,
      {
        config,
        schema: {
          operationId: op('replayShopDelivery'),
          tags,
          summary: 'Process a stored delivery again (idempotent)',
          params: DeliveryParams,
          response: { 200: ChannelDeliverySchema },
        },
      },
      async (request) =>
        replayDelivery(app.db, request.principal, request.params.shop_id, request.params.delivery_id, {
          allowPrivate: app.allowPrivateWebhooks,
        }),
    );
  }
}
