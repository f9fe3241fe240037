import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { PURCHASE_ORDER_STATUSES } from '../../../contract/inventory-enums.js';
import { csvList, enumList } from '../../../domain/pagination.js';
import { createMerchantPurchaseOrder } from '../../../domain/purchase-orders/index.js';
import { getPurchaseOrder, listPurchaseOrders } from '../../../domain/purchase-orders/index.js';
import {
  CreateMerchantPurchaseOrderBody,
  PurchaseOrderListQuery,
  PurchaseOrderListSchema,
  PurchaseOrderParams,
  PurchaseOrderSchema,
} from '../../../contract/purchase-orders.js';

// Purchase orders, merchant side: a merchant announces stock it sends to a fulfiller it
// delegates to (like a ShipBob WRO) and follows its receiving. The fulfiller receives it.

const tags = ['Inventory'];
const read = { permission: 'READ_INVENTORY', family: 'merchant' } as const;
const write = { permission: 'WRITE_INVENTORY', family: 'merchant' } as const;
type Params = { Params: Static<typeof PurchaseOrderParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof PurchaseOrderListQuery> }>(
    '/v1/merchant/purchase-orders',
    {
      config: read,
      schema: {
        operationId: 'listMerchantPurchaseOrders',
        tags,
        summary: "List this merchant's purchase orders (inbound shipments), newest first",
        querystring: PurchaseOrderListQuery,
        response: { 200: PurchaseOrderListSchema },
      },
    },
    async (request) => {
      const q = request.query;
      return listPurchaseOrders(app.db, 'merchant', request.principal.teamId, {
        ...q,
        status: enumList('query.status', q.status, PURCHASE_ORDER_STATUSES),
        warehouse_id: csvList(q.warehouse_id),
      });
    },
  );

  app.post<{ Body: Static<typeof CreateMerchantPurchaseOrderBody> }>(
    '/v1/merchant/purchase-orders',
    {
      config: write,
      schema: {
        operationId: 'createMerchantPurchaseOrder',
        tags,
        summary: 'Announce an inbound shipment to a warehouse of a fulfiller this merchant delegates to',
        body: CreateMerchantPurchaseOrderBody,
        response: { 201: PurchaseOrderSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createMerchantPurchaseOrder(app.db, request.principal, request.body)),
  );

  app.get<Params>(
    '/v1/merchant/purchase-orders/:purchase_order_id',
    {
      config: read,
      schema: {
        operationId: 'getMerchantPurchaseOrder',
        tags,
        summary: "Get one of this merchant's purchase orders",
        params: PurchaseOrderParams,
        response: { 200: PurchaseOrderSchema },
      },
    },
    async (request) => getPurchaseOrder(app.db, 'merchant', request.principal.teamId, request.params.purchase_order_id),
  );
}
