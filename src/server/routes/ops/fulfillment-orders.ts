import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { fulfillmentOrders as fos } from '../../../domain/fulfillment/index.js';
import { lockFulfillmentOrder, releaseFulfillmentOrderLock } from '../../../domain/fulfillment/index.js';
import { enumList } from '../../../domain/pagination.js';
import { cancelFulfillmentOrder } from '../../../domain/fulfillment/index.js';
import { CancelBody, MoveBody, SplitBody, SplitShortfallBody } from '../../../contract/order-exceptions.js';
import { splitShortfall } from '../../../domain/fulfillment/index.js';
import { moveFulfillmentOrder, splitFulfillmentOrder } from '../../../domain/fulfillment/index.js';
import {
  FO_STATUSES,
  FulfillmentOrderListQuery,
  FulfillmentOrderListSchema,
  FulfillmentOrderParams,
  FulfillmentOrderSchema,
  LockBody,
  LockResponse,
  MovedFulfillmentOrderSchema,
  ReleaseBody,
  SplitFulfillmentOrderSchema,
} from '../../../contract/fulfillment.js';

// Fulfillment orders and their locks (spec 2.11, 3.2, 4.6 steps 1b-3; docs/fulfillment.md).

const read = { permission: 'READ_FULFILLMENTS', family: 'ops' } as const;
const write = { permission: 'WRITE_FULFILLMENTS', family: 'ops' } as const;
const tags = ['Fulfillment'];
type Params = Static<typeof FulfillmentOrderParams>;

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof FulfillmentOrderListQuery> }>(
    '/v1/ops/fulfillment-orders',
    {
      config: read,
      schema: {
        operationId: 'listFulfillmentOrders',
        tags,
        summary: 'List fulfillment orders (oldest first)',
        description: 'Filters: order_id, status (comma-separated), warehouse_id, tote (a name or id; extension). meta adds total.',
        querystring: FulfillmentOrderListQuery,
        response: { 200: FulfillmentOrderListSchema },
      },
    },
    async (request) => {
      const status = enumList('query.status', request.query.status, FO_STATUSES);
      return fos.listFulfillmentOrders(app.db, request.principal.teamId, { ...request.query, status });
    },
  );

  app.get<{ Params: Params }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id',
    {
      config: read,
      schema: {
        operationId: 'getFulfillmentOrder',
        tags,
        summary: 'Get a fulfillment order (line items, shipping address, status, lock)',
        params: FulfillmentOrderParams,
        response: { 200: FulfillmentOrderSchema },
      },
    },
    async (request) => fos.getFulfillmentOrder(app.db, request.principal.teamId, request.params.fulfillment_order_id),
  );

  app.post<{ Params: Params }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/accept',
    {
      config: write,
      schema: {
        operationId: 'acceptFulfillmentOrder',
        tags,
        summary: 'Accept a fulfillment order (PENDING -> ACCEPTED)',
        description: 'Sets request_status and status ACCEPTED. Idempotent for ACCEPTED and IN_PROGRESS; 409 when FULFILLED or CANCELLED.',
        params: FulfillmentOrderParams,
        response: { 200: FulfillmentOrderSchema },
      },
    },
    async (request) => fos.acceptFulfillmentOrder(app.db, request.principal.teamId, request.params.fulfillment_order_id),
  );

  app.post<{ Params: Params; Body: Static<typeof LockBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/lock',
    {
      config: write,
      schema: {
        operationId: 'lockFulfillmentOrder',
        tags,
        summary: 'Lock a fulfillment order for fulfillment',
        description:
          'Only ACCEPTED or IN_PROGRESS fulfillment orders of orders without an active hold; an ACCEPTED one becomes IN_PROGRESS. ' +
          'The same lock_owner may lock again to extend; another owner gets 409 urn:fos:error:lock-held (with lock_owner, expires_at) ' +
          'until the lock is released or expires.',
        params: FulfillmentOrderParams,
        body: LockBody,
        response: { 200: LockResponse },
      },
    },
    async (request) => lockFulfillmentOrder(app.db, request.principal.teamId, request.params.fulfillment_order_id, request.body),
  );

  app.post<{ Params: Params; Body: Static<typeof ReleaseBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/release',
    {
      config: write,
      schema: {
        operationId: 'releaseFulfillmentOrderLock',
        tags,
        summary: 'Release a fulfillment order lock (holder only)',
        description:
          'Lets other fulfillment methods (picking sessions, bulk ship, manual) fulfill it. 409 unless lock_owner holds the lock.',
        params: FulfillmentOrderParams,
        body: ReleaseBody,
        response: { 200: LockResponse },
      },
    },
    async (request) =>
      releaseFulfillmentOrderLock(app.db, request.principal.teamId, request.params.fulfillment_order_id, request.body.lock_owner),
  );

  app.post<{ Params: Params; Body: Static<typeof CancelBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/cancel',
    {
      config: write,
      schema: {
        operationId: 'cancelFulfillmentOrder',
        tags,
        summary: 'Cancel what is not shipped of a fulfillment order',
        description:
          'Its remaining units leave the order (removed_quantity), their committed stock is released, unshipped labels are ' +
          "voided, open packages become CANCELLED and the fulfillment order CANCELLED (a lock is cleared: a packer's fulfill then gets " +
          '409). The order is CANCELLED (or CLOSED if something shipped) once nothing remains. 409 when FULFILLED or CANCELLED.',
        params: FulfillmentOrderParams,
        body: CancelBody,
        response: { 200: FulfillmentOrderSchema },
      },
    },
    async (request) =>
      cancelFulfillmentOrder(app.db, request.principal.teamId, request.params.fulfillment_order_id, {
        ...request.body,
        userId: request.principal.connection?.userId ?? null,
      }),
  );

  app.post<{ Params: Params; Body: Static<typeof MoveBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/move',
    {
      config: write,
      schema: {
        operationId: 'moveFulfillmentOrder',
        tags,
        summary: 'Move a fulfillment order (all or some lines) to another warehouse',
        description:
          'Commits the units at the new warehouse (409 when it has too few available) and releases them at the old one. ' +
          'All lines: the fulfillment order itself moves; some: a new PENDING fulfillment order is made there (moved). Only while ' +
          'not locked, with no package and nothing fulfilled (409 otherwise, naming the lock holder).',
        params: FulfillmentOrderParams,
        body: MoveBody,
        response: { 200: MovedFulfillmentOrderSchema },
      },
    },
    async (request) => moveFulfillmentOrder(app.db, request.principal.teamId, request.params.fulfillment_order_id, request.body),
  );

  app.post<{ Params: Params; Body: Static<typeof SplitBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/split',
    {
      config: write,
      schema: {
        operationId: 'splitFulfillmentOrder',
        tags,
        summary: 'Split some units off into a second fulfillment order',
        description:
          'The given units go to a new PENDING fulfillment order of the same warehouse (stock stays committed). Only while ' +
          'not locked, with no package and nothing fulfilled (409 otherwise).',
        params: FulfillmentOrderParams,
        body: SplitBody,
        response: { 200: SplitFulfillmentOrderSchema },
      },
    },
    async (request) => splitFulfillmentOrder(app.db, request.principal.teamId, request.params.fulfillment_order_id, request.body.lines),
  );

  app.post<{ Params: Params; Body: Static<typeof SplitShortfallBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/split-shortfall',
    {
      config: write,
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        operationId: 'splitFulfillmentOrderShortfall',
        tags,
        summary: 'Split the units recorded short off into a second fulfillment order',
        description:
          'Extension (docs/fulfillment.md "Short units never ship"): the units a short pick or a short pack scan recorded ' +
          '(line short_quantity) go to a new PENDING fulfillment order of the same warehouse (stock stays committed; cancel it to ' +
          'give them up) and the shortfall is cleared, so the found units can ship. Packages of the found units may exist; 409 ' +
          'when there is no shortfall, nothing was found, an open package holds short units, or another owner holds the lock.',
        params: FulfillmentOrderParams,
        body: SplitShortfallBody,
        response: { 200: SplitFulfillmentOrderSchema },
      },
    },
    async (request) =>
      splitShortfall(app.db, request.principal.teamId, request.params.fulfillment_order_id, request.body?.lock_owner ?? null),
  );
}
