import type { FastifyInstance } from 'fastify';
import { KEY_NOTE, idempotencyKeyOf, sendAnswer } from '../../idempotency.js';
import type { Static } from 'typebox';
import { RETURN_STATUSES } from '../../../contract/inventory-enums.js';
import { enumList } from '../../../domain/pagination.js';
import { cancelReturn, createReturn, receiveReturn } from '../../../domain/returns/index.js';
import { getReturn, listReturns } from '../../../domain/returns/index.js';
import {
  CreateReturnBody,
  ReceiveReturnBody,
  ReturnListQuery,
  ReturnListSchema,
  ReturnParams,
  ReturnSchema,
} from '../../../contract/returns.js';

// Returns of fulfilled orders (issue 10 item 6; docs/inventory.md).

const tags = ['Inventory'];
const read = { permission: 'READ_INVENTORY', family: 'ops' } as const;
const write = { permission: 'WRITE_INVENTORY', family: 'ops' } as const;
type Params = { Params: Static<typeof ReturnParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof ReturnListQuery> }>(
    '/v1/ops/returns',
    {
      config: read,
      schema: {
        operationId: 'listReturns',
        tags,
        summary: 'List returns, newest first',
        querystring: ReturnListQuery,
        response: { 200: ReturnListSchema },
      },
    },
    async (request) =>
      listReturns(app.db, request.principal.teamId, {
        ...request.query,
        status: enumList('query.status', request.query.status, RETURN_STATUSES),
      }),
  );

  app.post<{ Body: Static<typeof CreateReturnBody> }>(
    '/v1/ops/returns',
    {
      config: write,
      schema: {
        operationId: 'createReturn',
        tags,
        summary: 'Announce a return of fulfilled order lines (never more than fulfilled and not yet returned)',
        description: KEY_NOTE,
        body: CreateReturnBody,
        response: { 201: ReturnSchema },
      },
    },
    async (request, reply) => sendAnswer(reply, await createReturn(app.db, request.principal, request.body, idempotencyKeyOf(request))),
  );

  app.get<Params>(
    '/v1/ops/returns/:return_id',
    {
      config: read,
      schema: {
        operationId: 'getReturn',
        tags,
        summary: 'Get a return with its lines',
        params: ReturnParams,
        response: { 200: ReturnSchema },
      },
    },
    async (request) => getReturn(app.db, request.principal.teamId, request.params.return_id),
  );

  app.post<Params & { Body: Static<typeof ReceiveReturnBody> }>(
    '/v1/ops/returns/:return_id/receive',
    {
      config: write,
      schema: {
        operationId: 'receiveReturn',
        tags,
        summary: 'Receive returned units: SELLABLE restocks on_hand, DAMAGED is set aside',
        description: KEY_NOTE,
        params: ReturnParams,
        body: ReceiveReturnBody,
        response: { 200: ReturnSchema },
      },
    },
    async (request, reply) =>
      sendAnswer(reply, await receiveReturn(app.db, request.principal, request.params.return_id, request.body, idempotencyKeyOf(request))),
  );

  app.post<Params>(
    '/v1/ops/returns/:return_id/cancel',
    {
      config: write,
      schema: {
        operationId: 'cancelReturn',
        tags,
        summary: 'Cancel a return that received nothing',
        params: ReturnParams,
        response: { 200: ReturnSchema },
      },
    },
    async (request) => cancelReturn(app.db, request.principal, request.params.return_id),
  );
}
