import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { listReplenishments } from '../../../domain/inventory/index.js';
import { csvList } from '../../../domain/pagination.js';
import { ReplenishmentListQuery, ReplenishmentListSchema } from '../../../contract/replenishments.js';

// Replenishment tasks (issue 28; docs/floor.md): pickable bins below the product's minimum, filled
// from overstock with a normal move (POST /v1/ops/inventory/moves).

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof ReplenishmentListQuery> }>(
    '/v1/ops/replenishments',
    {
      config: { permission: 'READ_INVENTORY', family: 'ops' },
      schema: {
        operationId: 'listReplenishments',
        tags: ['Inventory'],
        summary: "Replenishment tasks: pickable bins below the product's replenishment_minimum_level while overstock holds units",
        description:
          'Computed from stock when asked, ordered by warehouse and product. Complete a task with POST /v1/ops/inventory/moves from the from_locations to to_location.',
        querystring: ReplenishmentListQuery,
        response: { 200: ReplenishmentListSchema },
      },
    },
    async (request) =>
      listReplenishments(app.db, request.principal.teamId, {
        ...request.query,
        warehouse_id: csvList(request.query.warehouse_id),
        product_id: csvList(request.query.product_id),
      }),
  );
}
