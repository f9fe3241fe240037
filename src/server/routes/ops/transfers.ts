import type { FastifyInstance } from 'fastify';
import { KEY_NOTE, idempotencyKeyOf, sendAnswer } from '../../idempotency.js';
import type { Static } from 'typebox';
import { TRANSFER_STATUSES } from '../../../contract/inventory-enums.js';
import { cancelTransfer, createTransfer, getTransfer, listTransfers, receiveTransfer } from '../../../domain/inventory/index.js';
import { csvList, enumList } from '../../../domain/pagination.js';
import {
  CreateTransferBody,
  ReceiveTransferBody,
  TransferListQuery,
  TransferListSchema,
  TransferParams,
  TransferSchema,
} from '../../../contract/inventory.js';

// Transfers between the team's warehouses (issue 10 item 5; docs/inventory.md).

const tags = ['Inventory'];
const read = { permission: 'READ_INVENTORY', family: 'ops' } as const;
const write = { permission: 'WRITE_INVENTORY', family: 'ops' } as const;
type Params = { Params: Static<typeof TransferParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof TransferListQuery> }>(
    '/v1/ops/inventory/transfers',
    {
      config: read,
      schema: {
        operationId: 'listTransfers',
        tags,
        summary: "List transfers between this team's warehouses, newest first",
        querystring: TransferListQuery,
        response: { 200: TransferListSchema },
      },
    },
    async (request) =>
      listTransfers(app.db, request.principal.teamId, {
        ...request.query,
        status: enumList('query.status', request.query.status, TRANSFER_STATUSES),
        warehouse_id: csvList(request.query.warehouse_id),
      }),
  );

  app.post<{ Body: Static<typeof CreateTransferBody> }>(
    '/v1/ops/inventory/transfers',
    {
      config: write,
      schema: {
        operationId: 'createTransfer',
        tags,
        summary: "Ship stock to another warehouse: off the source's on_hand, on order at the destination",
        description: 'Only sellable units ship (not committed or set aside); one transaction for all lines.' + ' ' + KEY_NOTE,
        body: CreateTransferBody,
        response: { 201: TransferSchema },
      },
    },
    async (request, reply) => sendAnswer(reply, await createTransfer(app.db, request.principal, request.body, idempotencyKeyOf(request))),
  );

  app.get<Params>(
    '/v1/ops/inventory/transfers/:transfer_id',
    {
      config: read,
      schema: {
        operationId: 'getTransfer',
        tags,
        summary: 'Get a transfer with its lines',
        params: TransferParams,
        response: { 200: TransferSchema },
      },
    },
    async (request) => getTransfer(app.db, request.principal.teamId, request.params.transfer_id),
  );

  app.post<Params & { Body: Static<typeof ReceiveTransferBody> }>(
    '/v1/ops/inventory/transfers/:transfer_id/receive',
    {
      config: write,
      schema: {
        operationId: 'receiveTransfer',
        tags,
        summary: 'Receive transferred units at the destination (partial receipts allowed)',
        description: KEY_NOTE,
        params: TransferParams,
        body: ReceiveTransferBody,
        response: { 200: TransferSchema },
      },
    },
    async (request, reply) =>
      sendAnswer(
        reply,
        await receiveTransfer(app.db, request.principal, request.params.transfer_id, request.body, idempotencyKeyOf(request)),
      ),
  );

  app.post<Params>(
    '/v1/ops/inventory/transfers/:transfer_id/cancel',
    {
      config: write,
      schema: {
        operationId: 'cancelTransfer',
        tags,
        summary: 'Cancel a transfer: what is still in transit goes back to the source',
        params: TransferParams,
        response: { 200: TransferSchema },
      },
    },
    async (request) => cancelTransfer(app.db, request.principal, request.params.transfer_id),
  );
}
