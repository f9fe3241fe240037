import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { listBackorders } from '../../../domain/orders/index.js';
import { PRIORITIES } from '../../../contract/orders-enums.js';
import { enumList } from '../../../domain/pagination.js';
import { listOf } from '../../../contract/common.js';
import { BackorderQuery, BackorderSchema } from '../../../contract/order-exceptions.js';

// What waits for stock (docs/orders.md "Backorders"): filled by the inventory ledger as stock arrives.

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof BackorderQuery> }>(
    '/v1/ops/backorders',
    {
      config: { permission: 'READ_ORDERS', family: 'ops' },
      schema: {
        operationId: 'listBackorders',
        tags: ['Orders'],
        summary: 'List units waiting for stock, in the order they will be served',
        description:
          'One row per order line with units not yet allocated: CRITICAL, HIGH, NORMAL, LOW, then the oldest order first. ' +
          'They are allocated automatically, in the same transaction, whenever stock becomes available at a warehouse of the team.',
        querystring: BackorderQuery,
        response: { 200: listOf(BackorderSchema) },
      },
    },
    async (request) =>
      listBackorders(app.db, request.principal.teamId, {
        ...request.query,
        priority: enumList('query.priority', request.query.priority, PRIORITIES),
      }),
  );
}
