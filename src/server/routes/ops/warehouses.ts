import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { getWarehouse, listWarehouses, updateWarehouse } from '../../../domain/warehouses/index.js';
import { listOf } from '../../../contract/common.js';
import { WarehouseListQuery, WarehouseParams, WarehouseSchema, WarehouseUpdateBody } from '../../../contract/warehouses.js';

// Warehouses of the caller's fulfiller team (docs/warehouses.md): an operator with a key finds
// warehouse ids (and the CLI resolves `--warehouse <name>`) without database access, and sets a
// warehouse's time zone (where its day ends for daily storage, docs/billing.md).

const tags = ['Warehouses'];
const read = { permission: 'READ_INVENTORY', family: 'ops' } as const;

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof WarehouseListQuery> }>(
    '/v1/ops/warehouses',
    {
      config: read,
      schema: {
        operationId: 'listWarehouses',
        tags,
        summary: "List the team's warehouses, by name",
        description: 'Sorted by name, then id. `name` keeps only the warehouses with exactly that name.',
        querystring: WarehouseListQuery,
        response: { 200: listOf(WarehouseSchema) },
      },
    },
    async (request) => listWarehouses(app.db, request.principal.teamId, request.query),
  );

  app.get<{ Params: Static<typeof WarehouseParams> }>(
    '/v1/ops/warehouses/:warehouse_id',
    {
      config: read,
      schema: {
        operationId: 'getWarehouse',
        tags,
        summary: 'Get a warehouse',
        params: WarehouseParams,
        response: { 200: WarehouseSchema },
      },
    },
    async (request) => getWarehouse(app.db, request.principal.teamId, request.params.warehouse_id),
  );

  app.patch<{ Params: Static<typeof WarehouseParams>; Body: Static<typeof WarehouseUpdateBody> }>(
    '/v1/ops/warehouses/:warehouse_id',
    {
      config: { permission: 'WRITE_INVENTORY', family: 'ops' },
      schema: {
        operationId: 'updateWarehouse',
        tags,
        summary: "Change a warehouse's time zone (an IANA name; where its day ends for daily storage)",
        params: WarehouseParams,
        body: WarehouseUpdateBody,
        response: { 200: WarehouseSchema },
      },
    },
    async (request) => updateWarehouse(app.db, request.principal.teamId, request.params.warehouse_id, request.body),
  );
}
