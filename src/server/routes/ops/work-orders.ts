import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { createWorkOrder } from '../../../domain/work-orders/index.js';
import { getWorkOrder, listWorkOrders } from '../../../domain/work-orders/index.js';
import { csvList } from '../../../domain/pagination.js';
import { idempotencyKeyOf, sendAnswer } from '../../idempotency.js';
import {
  CreateWorkOrderBody,
  WorkOrderListQuery,
  WorkOrderListSchema,
  WorkOrderParams,
  WorkOrderSchema,
} from '../../../contract/work-orders.js';

// Work orders: kits built from their components, one transaction through the ledger (issue 28; docs/floor.md).

const tags = ['Inventory'];
const read = { permission: 'READ_INVENTORY', family: 'ops' } as const;
const write = { permission: 'WRITE_INVENTORY', family: 'ops' } as const;

export default async function routes(app: FastifyInstance) {
  app.post<{ Body: Static<typeof CreateWorkOrderBody> }>(
    '/v1/ops/work-orders',
    {
      config: write,
      schema: {
        operationId: 'createWorkOrder',
        tags,
        summary: 'Build an ASSEMBLY product (a kit): consume its components from bins and add the assembly to a bin',
        description:
          'One transaction: components leave by the pick rule (pickable first, FEFO, never expired or DAMAGED), the assembly ' +
          'enters location_id or the putaway suggestion; every movement carries work_order_id. 409 names the components short. ' +
          'With an Idempotency-Key header the work order is built once per key (a repeat answers the first answer, ' +
          'header idempotent-replayed: true; the same key with another body is a 409).',
        body: CreateWorkOrderBody,
        response: { 201: WorkOrderSchema },
      },
    },
    async (request, reply) => sendAnswer(reply, await createWorkOrder(app.db, request.principal, request.body, idempotencyKeyOf(request))),
  );

  app.get<{ Querystring: Static<typeof WorkOrderListQuery> }>(
    '/v1/ops/work-orders',
    {
      config: read,
      schema: {
        operationId: 'listWorkOrders',
        tags,
        summary: 'List work orders, newest first',
        querystring: WorkOrderListQuery,
        response: { 200: WorkOrderListSchema },
      },
    },
    async (request) =>
      listWorkOrders(app.db, request.principal.teamId, {
        ...request.query,
        warehouse_id: csvList(request.query.warehouse_id),
        product_id: csvList(request.query.product_id),
      }),
  );

  app.get<{ Params: Static<typeof WorkOrderParams> }>(
    '/v1/ops/work-orders/:work_order_id',
    {
      config: read,
      schema: {
        operationId: 'getWorkOrder',
        tags,
        summary: 'Get a work order',
        params: WorkOrderParams,
        response: { 200: WorkOrderSchema },
      },
    },
    async (request) => getWorkOrder(app.db, request.principal.teamId, request.params.work_order_id),
  );
}
