import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { LOCATION_TYPES } from '../../../contract/inventory-enums.js';
import { listBinStock } from '../../../domain/inventory/index.js';
import { moveStock } from '../../../domain/inventory/index.js';
import { locations } from '../../../domain/locations/index.js';
import { putawayFor } from '../../../domain/locations/index.js';
import { csvList, enumList } from '../../../domain/pagination.js';
import { invalid } from '../../../domain/errors.js';
import {
  BinStockListSchema,
  BinStockQuery,
  BulkLocationsBody,
  BulkLocationsSchema,
  CreateLocationBody,
  LocationListQuery,
  LocationListSchema,
  LocationParams,
  LocationSchema,
  MoveBody,
  MoveSchema,
  PutawayQuery,
  PutawaySchema,
  UpdateLocationBody,
} from '../../../contract/locations.js';

// Locations (bins), stock by bin and lot, and moves between bins (issue 28; docs/floor.md).

const tags = ['Locations'];
const read = { permission: 'READ_INVENTORY', family: 'ops' } as const;
const write = { permission: 'WRITE_INVENTORY', family: 'ops' } as const;
type Params = { Params: Static<typeof LocationParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof LocationListQuery> }>(
    '/v1/ops/locations',
    {
      config: read,
      schema: {
        operationId: 'listLocations',
        tags,
        summary: "List the locations (bins) of this team's warehouses, in walk order",
        querystring: LocationListQuery,
        response: { 200: LocationListSchema },
      },
    },
    async (request) =>
      locations.listLocations(app.db, request.principal.teamId, {
        ...request.query,
        warehouse_id: csvList(request.query.warehouse_id),
        type: enumList('query.type', request.query.type, LOCATION_TYPES),
      }),
  );

  app.post<{ Body: Static<typeof CreateLocationBody> }>(
    '/v1/ops/locations',
    {
      config: write,
      schema: {
        operationId: 'createLocation',
        tags,
        summary: 'Create a location (bin) in a warehouse',
        body: CreateLocationBody,
        response: { 201: LocationSchema },
      },
    },
    async (request, reply) => {
      const { warehouse_id, ...fields } = request.body;
      const [created] = await locations.createLocations(app.db, request.principal.teamId, warehouse_id, [fields]);
      return reply.code(201).send(created);
    },
  );

  app.post<{ Body: Static<typeof BulkLocationsBody> }>(
    '/v1/ops/locations/bulk',
    {
      config: write,
      schema: {
        operationId: 'createLocations',
        tags,
        summary: 'Create many locations at once: from a range (A-01-01..A-20-05) or a list; all or none',
        body: BulkLocationsBody,
        response: { 201: BulkLocationsSchema },
      },
    },
    async (request, reply) => {
      const b = request.body;
      if (Boolean(b.range) === Boolean(b.locations)) throw invalid('body', 'give exactly one of range and locations');
      const shared = {
        ...(b.type ? { type: b.type } : {}),
        ...(b.location_type_id !== undefined ? { location_type_id: b.location_type_id } : {}),
      };
      const items = b.range ? locations.fromRange(b.range, shared) : b.locations!.map((l) => ({ ...shared, ...l }));
      const data = await locations.createLocations(app.db, request.principal.teamId, b.warehouse_id, items);
      return reply.code(201).send({ created: data.length, data });
    },
  );

  app.get<{ Querystring: Static<typeof PutawayQuery> }>(
    '/v1/ops/locations/putaway',
    {
      config: read,
      schema: {
        operationId: 'suggestPutaway',
        tags,
        summary: 'Where units of a product arriving without a named bin will go (putaway suggestion)',
        description:
          "The product's pickable bin in the warehouse, else the first empty pickable bin by pick_sequence, else the default location. Receipts and adjustments that name no location use the same rule.",
        querystring: PutawayQuery,
        response: { 200: PutawaySchema },
      },
    },
    async (request) => putawayFor(app.db, request.principal, request.query),
  );

  app.get<Params>(
    '/v1/ops/locations/:location_id',
    {
      config: read,
      schema: { operationId: 'getLocation', tags, summary: 'Get a location', params: LocationParams, response: { 200: LocationSchema } },
    },
    async (request) => locations.getLocation(app.db, request.principal.teamId, request.params.location_id),
  );

  app.patch<Params & { Body: Static<typeof UpdateLocationBody> }>(
    '/v1/ops/locations/:location_id',
    {
      config: write,
      schema: {
        operationId: 'updateLocation',
        tags,
        summary: 'Change a location (name, barcode, type, pick_sequence, active)',
        params: LocationParams,
        body: UpdateLocationBody,
        response: { 200: LocationSchema },
      },
    },
    async (request) => locations.updateLocation(app.db, request.principal.teamId, request.params.location_id, request.body),
  );

  app.delete<Params>(
    '/v1/ops/locations/:location_id',
    {
      config: write,
      schema: {
        operationId: 'deleteLocation',
        tags,
        summary: "Delete an empty location (not the warehouse's default)",
        params: LocationParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      await locations.deleteLocation(app.db, request.principal.teamId, request.params.location_id);
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: Static<typeof BinStockQuery> }>(
    '/v1/ops/inventory/locations',
    {
      config: read,
      schema: {
        operationId: 'listInventoryByLocation',
        tags: ['Inventory'],
        summary: 'Stock by location (bin) and lot',
        description:
          'Rows holding units. Filters: product_id, warehouse_id (comma-separated), sku, location (id, name or barcode), lot_code, expiring_before.',
        querystring: BinStockQuery,
        response: { 200: BinStockListSchema },
      },
    },
    async (request) => {
      const q = request.query;
      return listBinStock(app.db, request.principal.teamId, {
        ...q,
        product_id: csvList(q.product_id),
        warehouse_id: csvList(q.warehouse_id),
      });
    },
  );

  app.post<{ Body: Static<typeof MoveBody> }>(
    '/v1/ops/inventory/moves',
    {
      config: write,
      schema: {
        operationId: 'moveInventory',
        tags: ['Inventory'],
        summary: 'Move units between two locations of a warehouse (levels unchanged; MOVED movements)',
        body: MoveBody,
        response: { 201: MoveSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await moveStock(app.db, request.principal, request.body)),
  );
}
