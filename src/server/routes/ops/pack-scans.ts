import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { PackageSchema } from '../../../contract/packages.js';
import {
  PackBody,
  PackBoxSchema,
  PackFoParams,
  PackScanBody,
  PackScanDeleteQuery,
  PackScanParams,
  PackScanResponse,
} from '../../../contract/pack-scans.js';
import { packBox } from '../../../domain/fulfillment/index.js';
import { addPackScan, deletePackScan, getPackBox, type Packer } from '../../../domain/fulfillment/index.js';
import { idempotencyKeyOf, sendAnswer } from '../../idempotency.js';

// Packing that checks (issue 28 item 5; docs/floor.md): scans into a fulfillment order's open box,
// undo, and pack. The /floor page and `fos pack` are built on these.

const read = { permission: 'READ_FULFILLMENTS', family: 'ops' } as const;
const write = { permission: 'WRITE_FULFILLMENTS', family: 'ops' } as const;
const tags = ['Packing'];
type FoParams = Static<typeof PackFoParams>;

const UNPROCESSABLE = {
  description: 'Unknown barcode or tote (urn:fos:error:unprocessable), with expected: what the box still needs.',
  content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
};

/** The person, when a user principal (an agent connection's, a signed-in user's) acts. */
const packerOf = (request: FastifyRequest): Packer => {
  const c = request.principal.connection;
  return c ? { userId: c.userId, userName: c.userName } : {};
};

export default async function routes(app: FastifyInstance) {
  app.post<{ Params: FoParams; Body: Static<typeof PackScanBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/pack-scans',
    {
      config: write,
      schema: {
        operationId: 'createPackScan',
        tags,
        summary: 'Scan a unit into the box of a fulfillment order (checked against what it still needs)',
        description:
          'barcode is the product barcode or SKU (case-insensitive). 409 when the item is not in this order or more than it ' +
          'still needs (unfulfilled minus other open packages minus units already scanned), for a lot the warehouse does not ' +
          "hold (lot-tracked products), a tote that is not the order's, an active hold (on-hold) or a lock held by another " +
          'owner (lock-held); 422 for an unknown barcode. Refusals carry expected: what the box still needs. The first scan ' +
          'sets packing_started_at. With an Idempotency-Key header a retried scan applies once.',
        params: PackFoParams,
        body: PackScanBody,
        response: { 200: PackScanResponse, 422: UNPROCESSABLE },
      },
    },
    async (request, reply) =>
      sendAnswer(
        reply,
        await addPackScan(
          app.db,
          request.principal.teamId,
          request.params.fulfillment_order_id,
          request.body,
          packerOf(request),
          idempotencyKeyOf(request),
        ),
      ),
  );

  app.get<{ Params: FoParams }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/pack-scans',
    {
      config: read,
      schema: {
        operationId: 'getPackBox',
        tags,
        summary: 'The open box of a fulfillment order: what is scanned, what it still needs',
        params: PackFoParams,
        response: { 200: PackBoxSchema },
      },
    },
    async (request) => getPackBox(app.db, request.principal.teamId, request.params.fulfillment_order_id),
  );

  app.delete<{ Params: Static<typeof PackScanParams>; Querystring: Static<typeof PackScanDeleteQuery> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/pack-scans/:scan_id',
    {
      config: write,
      schema: {
        operationId: 'deletePackScan',
        tags,
        summary: 'Undo a scan: take it out of the open box',
        description: '409 when the scan is already in a package.',
        params: PackScanParams,
        querystring: PackScanDeleteQuery,
        response: { 204: { type: 'null', description: 'The scan is out of the box.' } },
      },
    },
    async (request, reply) => {
      const { fulfillment_order_id, scan_id } = request.params;
      const packer = { ...packerOf(request), owner: request.query.lock_owner };
      await deletePackScan(app.db, request.principal.teamId, fulfillment_order_id, scan_id, packer);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: FoParams; Body: Static<typeof PackBody> }>(
    '/v1/ops/fulfillment-orders/:fulfillment_order_id/pack',
    {
      config: write,
      schema: {
        operationId: 'packFulfillmentOrder',
        tags,
        summary: 'Close the box: a package with exactly the scanned lines (lots included)',
        description:
          'Makes the package as POST /v1/ops/packages does, from the scans, in one transaction that consumes them: of two ' +
          'packs racing, one makes the package and the other answers 409. 409 when nothing was scanned. Sets ' +
          'packing_completed_at and packed_by_user_* (when a user acts). With an Idempotency-Key header a retry answers ' +
          'the package the first call made (200).',
        params: PackFoParams,
        body: PackBody,
        response: { 201: PackageSchema, 200: PackageSchema },
      },
    },
    async (request, reply) => {
      const { package: pkg, created } = await packBox(
        app.db,
        request.principal,
        request.params.fulfillment_order_id,
        request.body,
        packerOf(request),
        idempotencyKeyOf(request),
        `${request.protocol}://${request.host}`,
      );
      return reply.code(created ? 201 : 200).send(pkg);
    },
  );
}
