import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { IdParams, StringEnum, Uuid, listOf, pageQuery } from '../../../contract/common.js';
import { OrderListItemSchema, OrderSchema } from '../../../contract/orders.js';
import { PRIORITIES } from '../../../contract/orders-enums.js';
import { changeOrderPriority, getOrder, markPaid } from '../../../domain/orders/index.js';
import type { Principal } from '../../../domain/keys/index.js';
import { fetchList } from './list-fetch.js';
import { cancelOrder } from '../../../domain/fulfillment/index.js';
import { listOrderHolds, placeOrderHold, releaseOrderHold } from '../../../domain/orders/index.js';
import { CancelBody, HoldBody, HoldParams, HoldSchema, OrderEditBody } from '../../../contract/order-exceptions.js';
import { editAndVerify } from '../../../domain/carrier-integrations/index.js';

// Orders of the caller's fulfiller team (spec 4.5). Orders of other teams answer 404.

const tags = ['Orders'];
const read = { permission: 'READ_ORDERS', family: 'ops' } as const;
const write = { permission: 'WRITE_ORDERS', family: 'ops' } as const;
type OrderParams = { order_id: string };

const iso = (what: string) =>
  Type.Optional(Type.String({ maxLength: 40, description: `${what} (ISO 8601 date or date-time; UTC unless an offset is given)` }));

/** The twelve list parameters, in the spec's order, then the additive filters. */
export const ListOrdersQuery = Type.Object(
  {
    ...pageQuery(),
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'minimum 3 characters: order-number prefix (with or without #) or customer name/email substring, case-insensitive',
      }),
    ),
    status: Type.Optional(Type.String({ description: 'comma-separated: OPEN, PENDING_FULFILLMENT, CLOSED, CANCELLED' })),
    payment_status: Type.Optional(Type.String({ description: 'comma-separated: PENDING, PAID, REFUNDED' })),
    fulfillment_status: Type.Optional(Type.String({ description: 'comma-separated: UNFULFILLED, PARTIALLY_FULFILLED, FULFILLED' })),
    created_at_min: iso('created on or after'),
    created_at_max: iso('created on or before; a bare date includes that whole day'),
    updated_at_min: iso('updated on or after'),
    updated_at_max: iso('updated on or before; a bare date includes that whole day'),
    order_by: Type.Optional(StringEnum(['created_at', 'updated_at', 'order_number'] as const, { default: 'created_at' })),
    order: Type.Optional(StringEnum(['asc', 'desc'] as const, { description: 'default desc' })),
    // Additive filters (issue 34; docs/orders.md), each backed by an index.
    merchant_team_id: Type.Optional(Type.String({ maxLength: 4000, description: "merchant teams' ids or exact names, comma-separated" })),
    shop_id: Type.Optional(Type.String({ maxLength: 4000, description: 'shop ids or exact names, comma-separated' })),
    warehouse_id: Type.Optional(
      Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated: orders with a fulfillment order there' }),
    ),
    tag: Type.Optional(
      Type.String({ maxLength: 4000, description: 'tags, comma-separated: orders having any of them (exact, case-sensitive)' }),
    ),
    on_hold: Type.Optional(Type.Boolean({ description: 'true: orders with an active fulfillment hold; false: without' })),
  },
  { additionalProperties: false },
);

const PriorityBody = Type.Object({ priority: StringEnum(PRIORITIES) }, { additionalProperties: false });

export default async function routes(app: FastifyInstance) {
  const list = async (request: { principal: Principal; query: Static<typeof ListOrdersQuery> }) =>
    fetchList.orders(app.db, request.principal, request.query);
  const listSchema = { querystring: ListOrdersQuery, response: { 200: listOf(OrderListItemSchema) } };

  app.get<{ Querystring: Static<typeof ListOrdersQuery> }>(
    '/v1/ops/orders/list',
    {
      config: read,
      schema: { operationId: 'listOrders', tags, summary: 'List orders', ...listSchema },
    },
    list,
  );

  app.get<{ Querystring: Static<typeof ListOrdersQuery> }>(
    '/v1/ops/orders',
    {
      config: read,
      schema: {
        operationId: 'listOrdersRoot',
        tags,
        summary: 'List orders (same parameters and response as GET /v1/ops/orders/list)',
        ...listSchema,
      },
    },
    list,
  );

  app.get<{ Params: OrderParams }>(
    '/v1/ops/orders/:order_id',
    {
      config: read,
      schema: {
        operationId: 'getOrder',
        tags,
        summary: 'Get an order (fulfillment orders are not embedded)',
        params: Type.Object({ order_id: Uuid }),
        response: { 200: OrderSchema },
      },
    },
    async (request) => getOrder(app.db, request.principal.teamId, request.params.order_id),
  );

  app.patch<{ Params: OrderParams; Body: Static<typeof PriorityBody> }>(
    '/v1/ops/orders/:order_id/priority',
    {
      config: write,
      schema: {
        operationId: 'updateOrderPriority',
        tags,
        summary: "Change an order's priority",
        description:
          'Only priority changes. Scarce stock is allocated to CRITICAL, HIGH, NORMAL, then LOW orders, oldest first; ' +
          'waiting quantities are re-allocated after the change.',
        params: IdParams('order_id'),
        body: PriorityBody,
        response: { 200: OrderSchema },
      },
    },
    async (request) => changeOrderPriority(app.db, request.principal.teamId, request.params.order_id, request.body.priority),
  );

  app.post<{ Params: OrderParams }>(
    '/v1/ops/orders/:order_id/mark-paid',
    {
      config: write,
      schema: {
        operationId: 'markOrderPaid',
        tags,
        summary: 'Mark an order paid (extension)',
        description: 'Sets payment_status PAID and lifts the AWAITING_PAYMENT fulfillment hold. Only PENDING orders (409 otherwise).',
        params: IdParams('order_id'),
        response: { 200: OrderSchema },
      },
    },
    async (request) => markPaid(app.db, request.principal.teamId, request.params.order_id),
  );

  // The person acting, when an agent connection calls (API keys are no person).
  const userOf = (request: { principal: { connection?: { userId: string } } }) => request.principal.connection?.userId ?? null;

  app.post<{ Params: OrderParams; Body: Static<typeof CancelBody> }>(
    '/v1/ops/orders/:order_id/cancel',
    {
      config: write,
      schema: {
        operationId: 'cancelOrder',
        tags,
        summary: 'Cancel an order (what is not shipped)',
        description:
          "Cancels every open fulfillment order's remaining units and every unit waiting for stock: committed stock is released " +
          '(RELEASED movements; restock false sets it aside as unavailable), unshipped labels are voided through their carrier, open ' +
          'packages become CANCELLED, the order CANCELLED with cancelled_at and cancel_reason; order.cancelled is emitted. Shipped units ' +
          'stay shipped (a return undoes them). 409 when the order is CLOSED or CANCELLED, or a label cannot be voided.',
        params: IdParams('order_id'),
        body: CancelBody,
        response: { 200: OrderSchema },
      },
    },
    async (request) => cancelOrder(app.db, request.principal.teamId, request.params.order_id, { ...request.body, userId: userOf(request) }),
  );

  app.get<{ Params: OrderParams }>(
    '/v1/ops/orders/:order_id/holds',
    {
      config: read,
      schema: {
        operationId: 'listOrderHolds',
        tags,
        summary: "List an order's fulfillment holds (active and released)",
        params: IdParams('order_id'),
        response: { 200: Type.Object({ data: Type.Array(HoldSchema) }) },
      },
    },
    async (request) => listOrderHolds(app.db, request.principal.teamId, request.params.order_id),
  );

  app.post<{ Params: OrderParams; Body: Static<typeof HoldBody> }>(
    '/v1/ops/orders/:order_id/holds',
    {
      config: write,
      schema: {
        operationId: 'placeOrderHold',
        tags,
        summary: 'Put an order on hold',
        description:
          'While any hold is active, its fulfillment orders cannot be locked, packed, labelled or fulfilled (409 on-hold naming ' +
          'the hold). created_by_user_id is the person when an agent connection acts. Only OPEN or PENDING_FULFILLMENT orders (409).',
        params: IdParams('order_id'),
        body: HoldBody,
        response: { 201: HoldSchema },
      },
    },
    async (request, reply) => {
      const hold = await placeOrderHold(app.db, request.principal.teamId, request.params.order_id, {
        ...request.body,
        userId: userOf(request),
      });
      return reply.code(201).send(hold);
    },
  );

  app.post<{ Params: Static<typeof HoldParams> }>(
    '/v1/ops/orders/:order_id/holds/:hold_id/release',
    {
      config: write,
      schema: {
        operationId: 'releaseOrderHold',
        tags,
        summary: 'Release a hold',
        description:
          'Sets the hold inactive (409 when already released; AWAITING_PAYMENT is lifted by mark-paid instead). Releasing the ' +
          'last active hold runs allocation of waiting units.',
        params: HoldParams,
        response: { 200: HoldSchema },
      },
    },
    async (request) => releaseOrderHold(app.db, request.principal.teamId, request.params.order_id, request.params.hold_id, userOf(request)),
  );

  app.patch<{ Params: OrderParams; Body: Static<typeof OrderEditBody> }>(
    '/v1/ops/orders/:order_id',
    {
      config: write,
      schema: {
        operationId: 'updateOrder',
        tags,
        summary: 'Edit an open order (shipping address, shipping method, note, tags, lock_address, line items)',
        description:
          "The shipping address is re-verified (when the order's config enables verification; through EasyPost when the team " +
          'has an EasyPost integration, docs/carriers.md) and refused while lock_address ' +
          'is set (send lock_address false with it). 409 while any of its fulfillment orders is locked (naming the holder) and for ' +
          "CLOSED or CANCELLED orders. Line items: add_line_items, update_line_items (set a core line's quantity), remove_line_items; " +
          'stock is re-committed and fulfillment orders updated in the same transaction (packed or shipped units cannot be removed: 409). ' +
          'Emits order.updated with the changed fields.',
        params: IdParams('order_id'),
        body: OrderEditBody,
        response: { 200: OrderSchema },
      },
    },
    async (request) =>
      editAndVerify(
        app.db,
        request.principal.teamId,
        request.params.order_id,
        request.body as never,
        { allowPrivate: app.allowPrivateWebhooks },
        request.log,
      ),
  );
}
