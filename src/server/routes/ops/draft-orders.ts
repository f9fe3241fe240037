import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { IdParams, listOf, pageQuery, sortOrder } from '../../../contract/common.js';
import { DraftOrderCreateBody, DraftOrderSchema, OrderSchema } from '../../../contract/orders.js';
import { createDraftOrder, getDraftOrder, listDraftOrders, type DraftOrderInput } from '../../../domain/orders/index.js';
import { convertAndVerify } from '../../../domain/carrier-integrations/index.js';

// Draft orders (spec 4.5 names only the create path; shapes: docs/orders.md). Fulfiller keys
// create drafts for a delegated merchant team, then convert them into orders.

const tags = ['Orders'];
const read = { permission: 'READ_ORDERS', family: 'ops' } as const;
const write = { permission: 'WRITE_ORDERS', family: 'ops' } as const;
type DraftParams = { draft_order_id: string };

const ListDraftsQuery = Type.Object(
  {
    ...pageQuery(),
    status: Type.Optional(Type.String({ description: 'comma-separated: OPEN, CONVERTED' })),
    order: sortOrder,
  },
  { additionalProperties: false },
);

const createDescription =
  "Creates a draft order for a merchant team delegated to the caller's team (merchant_team_id may be " +
  "omitted when exactly one is). Line items name the merchant's products by product_id or sku. Nothing is reserved " +
  'until the draft is converted.';

export default async function routes(app: FastifyInstance) {
  // Registered twice: our path and the spec's (same body, permission and response).
  const create = (path: string, operationId: string, summary: string) =>
    app.post<{ Body: Static<typeof DraftOrderCreateBody> }>(
      path,
      {
        config: write,
        schema: {
          operationId,
          tags,
          summary,
          description: createDescription,
          body: DraftOrderCreateBody,
          response: { 201: DraftOrderSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createDraftOrder(app.db, request.principal.teamId, request.body as DraftOrderInput)),
    );
  create('/v1/ops/draft-orders', 'createDraftOrder', 'Create a draft order');
  // The spec's paths are relative to {base_url}, which ends with /v1 (spec preamble): its
  // /api/orders/… is /v1/api/orders/… here, and /api/orders/… in the published document.
  create(
    '/v1/api/orders/draft-orders/create-draft-order',
    'createDraftOrderSpecPath',
    'Create a draft order (spec path; same as POST /v1/ops/draft-orders)',
  );

  app.get<{ Querystring: Static<typeof ListDraftsQuery> }>(
    '/v1/ops/draft-orders',
    {
      config: read,
      schema: {
        operationId: 'listDraftOrders',
        tags,
        summary: 'List draft orders (newest first by default)',
        querystring: ListDraftsQuery,
        response: { 200: listOf(DraftOrderSchema) },
      },
    },
    async (request) => listDraftOrders(app.db, request.principal.teamId, request.query),
  );

  app.get<{ Params: DraftParams }>(
    '/v1/ops/draft-orders/:draft_order_id',
    {
      config: read,
      schema: {
        operationId: 'getDraftOrder',
        tags,
        summary: 'Get a draft order',
        params: IdParams('draft_order_id'),
        response: { 200: DraftOrderSchema },
      },
    },
    async (request) => getDraftOrder(app.db, request.principal.teamId, request.params.draft_order_id),
  );

  app.post<{ Params: DraftParams }>(
    '/v1/ops/draft-orders/:draft_order_id/convert',
    {
      config: write,
      schema: {
        operationId: 'convertDraftOrder',
        tags,
        summary: 'Convert a draft order into an order',
        description:
          'One transaction: the order (status OPEN) with CORE and ORIGINAL line items, inventory committed, one ' +
          'fulfillment order per warehouse that ships it (PENDING, UNSUBMITTED), an AWAITING_PAYMENT hold when payment is ' +
          'PENDING, and the order.created event. Units without stock stay unallocated and are allocated later by priority. ' +
          'A draft converts once: a second or concurrent conversion gets 409. With an EasyPost integration the shipping address ' +
          'is then verified (docs/carriers.md); a failing one puts the order on an ADDRESS_VERIFICATION_FAILED hold.',
        params: IdParams('draft_order_id'),
        response: { 200: OrderSchema },
      },
    },
    async (request) =>
      convertAndVerify(
        app.db,
        request.principal.teamId,
        request.params.draft_order_id,
        { allowPrivate: app.allowPrivateWebhooks },
        request.log,
      ),
  );
}
