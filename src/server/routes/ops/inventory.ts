import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { adjustInventory } from '../../../domain/inventory/index.js';
import { listLevels } from '../../../domain/inventory/index.js';
import { fetchList } from './list-fetch.js';
import { csvList } from '../../../domain/pagination.js';
import { idempotencyKeyOf, sendAnswer } from '../../idempotency.js';
import {
  AdjustmentBody,
  AdjustmentSchema,
  InventoryListQuery,
  InventoryListSchema,
  MovementListQuery,
  MovementListSchema,
} from '../../../contract/inventory.js';

// Inventory levels, the movement ledger and adjustments (issue 10; docs/inventory.md).

const tags = ['Inventory'];
const read = { permission: 'READ_INVENTORY', family: 'ops' } as const;
const write = { permission: 'WRITE_INVENTORY', family: 'ops' } as const;

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof InventoryListQuery> }>(
    '/v1/ops/inventory',
    {
      config: read,
      schema: {
        operationId: 'listInventory',
        tags,
        summary: 'List inventory levels (product x warehouse) with available and reorder figures',
        description: 'Filters: product_id, warehouse_id (comma-separated), sku, below_minimum. In creation order (id).',
        querystring: InventoryListQuery,
        response: { 200: InventoryListSchema },
      },
    },
    async (request) => {
      const q = request.query;
      return listLevels(app.db, request.principal.teamId, {
        ...q,
        product_id: csvList(q.product_id),
        warehouse_id: csvList(q.warehouse_id),
      });
    },
  );

  app.get<{ Querystring: Static<typeof MovementListQuery> }>(
    '/v1/ops/inventory/movements',
    {
      config: read,
      schema: {
        operationId: 'listInventoryMovements',
        tags,
        summary: 'List the inventory ledger, newest first',
        description:
          'Every change to a level, one row per bucket. Filters: product_id, warehouse_id, kind (comma-separated), sku, reference_id, created_at_min/max.',
        querystring: MovementListQuery,
        response: { 200: MovementListSchema },
      },
    },
    async (request) => {
      return fetchList.movements(app.db, request.principal, request.query);
    },
  );

  app.post<{ Body: Static<typeof AdjustmentBody> }>(
    '/v1/ops/inventory/adjustments',
    {
      config: write,
      schema: {
        operationId: 'createInventoryAdjustment',
        tags,
        summary: 'Adjust or count inventory at a warehouse (up to 1,000 lines, all or nothing)',
        description:
          'Each line gives product_id or sku and a delta, or (CYCLE_COUNT, CORRECTION) the counted on_hand. ' +
          'DAMAGED/QUARANTINE set units aside (negative: write set-aside units off); RELEASE_QUARANTINE returns them. ' +
          'on_hand never falls below committed + unavailable without force, nor below zero. ' +
          'With an Idempotency-Key header the adjustment is applied once per key: a repeat answers the first answer ' +
          '(header idempotent-replayed: true); the same key with another body is a 409.',
        body: AdjustmentBody,
        response: { 201: AdjustmentSchema },
      },
    },
    async (request, reply) => sendAnswer(reply, await adjustInventory(app.db, request.principal, request.body, idempotencyKeyOf(request))),
  );
}
