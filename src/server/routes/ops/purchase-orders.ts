import type { FastifyInstance } from 'fastify';
import { KEY_NOTE, idempotencyKeyOf, sendAnswer } from '../../idempotency.js';
import type { Static } from 'typebox';
import { PURCHASE_ORDER_STATUSES } from '../../../contract/inventory-enums.js';
import { csvList, enumList } from '../../../domain/pagination.js';
import { createPurchaseOrder } from '../../../domain/purchase-orders/index.js';
import { cancelPurchaseOrder, closePurchaseOrder } from '../../../domain/purchase-orders/index.js';
import { getPurchaseOrder, listPurchaseOrders } from '../../../domain/purchase-orders/index.js';
import { receivePurchaseOrder } from '../../../domain/purchase-orders/index.js';
import {
  CreatePurchaseOrderBody,
  PurchaseOrderListQuery,
  PurchaseOrderListSchema,
  PurchaseOrderParams,
  PurchaseOrderSchema,
  ReceiptSchema,
  ReceiveBody,
} from '../../../contract/purchase-orders.js';

// Purchase orders / inbound receipts, fulfiller side (issue 10 item 3; docs/inventory.md).

const tags = ['Inventory'];
const read = { permission: 'READ_INVENTORY', family: 'ops' } as const;
const write = { permission: 'WRITE_INVENTORY', family: 'ops' } as const;
type Params = { Params: Static<typeof PurchaseOrderParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof PurchaseOrderListQuery> }>(
    '/v1/ops/purchase-orders',
    {
      config: read,
      schema: {
        operationId: 'listPurchaseOrders',
        tags,
        summary: "List purchase orders of this team's warehouses, newest first",
        description: 'Filters: status, warehouse_id (comma-separated), merchant_team_id, reference.',
        querystring: PurchaseOrderListQuery,
        response: { 200: PurchaseOrderListSchema },
      },
    },
    async (request) => {
      const q = request.query;
      return listPurchaseOrders(app.db, 'ops', request.principal.teamId, {
        ...q,
        status: enumList('query.status', q.status, PURCHASE_ORDER_STATUSES),
        warehouse_id: csvList(q.warehouse_id),
      });
    },
  );

  app.post<{ Body: Static<typeof CreatePurchaseOrderBody> }>(
    '/v1/ops/purchase-orders',
    {
      config: write,
      schema: {
        operationId: 'createPurchaseOrder',
        tags,
        summary: 'Create a purchase order: its units count as on_order at the warehouse',
        body: CreatePurchaseOrderBody,
        response: { 201: PurchaseOrderSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createPurchaseOrder(app.db, request.principal, request.body)),
  );

  app.get<Params>(
    '/v1/ops/purchase-orders/:purchase_order_id',
    {
      config: read,
      schema: {
        operationId: 'getPurchaseOrder',
        tags,
        summary: 'Get a purchase order with its lines',
        params: PurchaseOrderParams,
        response: { 200: PurchaseOrderSchema },
      },
    },
    async (request) => getPurchaseOrder(app.db, 'ops', request.principal.teamId, request.params.purchase_order_id),
  );

  app.post<Params & { Body: Static<typeof ReceiveBody> }>(
    '/v1/ops/purchase-orders/:purchase_order_id/receive',
    {
      config: write,
      schema: {
        operationId: 'receivePurchaseOrder',
        tags,
        summary: 'Receive units of a purchase order (partial and repeated receipts; bills the receiving charge)',
        description:
          'Units move from on_order to on_hand (DAMAGED ones are also set aside as unavailable). More than is open needs allow_over_receipt.' +
          ' ' +
          KEY_NOTE,
        params: PurchaseOrderParams,
        body: ReceiveBody,
        response: { 200: ReceiptSchema },
      },
    },
    async (request, reply) =>
      sendAnswer(
        reply,
        await receivePurchaseOrder(app.db, request.principal, request.params.purchase_order_id, request.body, idempotencyKeyOf(request)),
      ),
  );

  app.post<Params>(
    '/v1/ops/purchase-orders/:purchase_order_id/close',
    {
      config: write,
      schema: {
        operationId: 'closePurchaseOrder',
        tags,
        summary: 'Close a purchase order: what is still open leaves on_order',
        params: PurchaseOrderParams,
        response: { 200: PurchaseOrderSchema },
      },
    },
    async (request) => closePurchaseOrder(app.db, request.principal, request.params.purchase_order_id),
  );

  app.post<Params>(
    '/v1/ops/purchase-orders/:purchase_order_id/cancel',
    {
      config: write,
      schema: {
        operationId: 'cancelPurchaseOrder',
        tags,
        summary: 'Cancel a purchase order that received nothing: all of it leaves on_order',
        params: PurchaseOrderParams,
        response: { 200: PurchaseOrderSchema },
      },
    },
    async (request) => cancelPurchaseOrder(app.db, request.principal, request.params.purchase_order_id),
  );
}
