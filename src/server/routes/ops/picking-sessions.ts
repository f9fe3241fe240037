import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import { Id, IdParams, listOf } from '../../../contract/common.js';
import {
  AssignBody,
  AssignResponse,
  CreateSessionBody,
  NameBody,
  PickScanBody,
  PickScanResponse,
  PickingEntryListSchema,
  PickingSessionSchema,
  SessionFoQuery,
  SessionListQuery,
  ToteListQuery,
  ToteSchema,
} from '../../../contract/picking.js';
import {
  assignFulfillmentOrders,
  createTote,
  getSession,
  listSessionFulfillmentOrders,
  listSessions,
  listTotes,
} from '../../../domain/picking/index.js';

import { pickList } from '../../../domain/picking/index.js';
import { createPickingSession } from '../../../domain/picking/index.js';
import { recordScan, undoScan } from '../../../domain/picking/index.js';
import { idempotencyKeyOf, sendAnswer } from '../../idempotency.js';
import { PickListSchema } from '../../../contract/locations.js';

const tags = ['Picking sessions'];
const read = { permission: 'READ_FULFILLMENTS', family: 'ops' } as const;
const write = { permission: 'WRITE_FULFILLMENTS', family: 'ops' } as const;
const SessionParams = IdParams('picking_session_id');
const ScanParams = Type.Object({ picking_session_id: Id, scan_id: Id });

/** Picking sessions (spec 4.9) plus the session and tote management that makes them usable. */
export default async function routes(app: FastifyInstance) {
  // The spec's literal path, version segment doubled: {base_url}/ops/v1/picking-sessions/…
  app.get(
    '/v1/ops/v1/picking-sessions/:picking_session_id/fulfillment-orders',
    {
      config: read,
      schema: {
        operationId: 'listPickingSessionFulfillmentOrders',
        tags,
        summary: 'List the fulfillment orders of a picking session (limit 1..50, default 10)',
        params: SessionParams,
        querystring: SessionFoQuery,
        response: { 200: PickingEntryListSchema },
      },
    },
    async (request) => {
      const { picking_session_id } = request.params as Static<typeof SessionParams>;
      return listSessionFulfillmentOrders(
        app.db,
        request.principal.teamId,
        picking_session_id,
        request.query as Static<typeof SessionFoQuery>,
      );
    },
  );

  app.get(
    '/v1/ops/picking-sessions',
    {
      config: read,
      schema: {
        operationId: 'listPickingSessions',
        tags,
        summary: 'List picking sessions, newest first by default',
        querystring: SessionListQuery,
        response: { 200: listOf(PickingSessionSchema) },
      },
    },
    async (request) => listSessions(app.db, request.principal.teamId, request.query as Static<typeof SessionListQuery>),
  );

  app.post(
    '/v1/ops/picking-sessions',
    {
      config: write,
      schema: {
        operationId: 'createPickingSession',
        tags,
        summary: 'Create a picking session: empty, from fulfillment orders, or from a wave rule',
        description:
          'A wave takes open ACCEPTED fulfillment orders of a warehouse that are in no session (not on hold, not locked), ' +
          'priority first then oldest, up to max_orders, optionally of one carrier or shipping method or with a single unit; ' +
          'each gets a tote. 409 when no fulfillment order matches (nothing is created). docs/floor.md.',
        body: CreateSessionBody,
        response: { 201: PickingSessionSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createPickingSession(app.db, request.principal.teamId, request.body as Static<typeof CreateSessionBody>)),
  );

  app.get(
    '/v1/ops/picking-sessions/:picking_session_id/pick-list',
    {
      config: read,
      schema: {
        operationId: 'getPickList',
        tags,
        summary: 'The walk for a session: bins in pick_sequence order, what to take from each and which totes get it',
        description:
          'Bins chosen as a fulfill takes them: PICKABLE before OVERSTOCK, earliest unexpired lot first; never DAMAGED bins or expired lots (docs/floor.md).',
        params: SessionParams,
        response: { 200: PickListSchema },
      },
    },
    async (request) => {
      const { picking_session_id } = request.params as Static<typeof SessionParams>;
      return pickList(app.db.prisma, request.principal.teamId, picking_session_id);
    },
  );

  app.post(
    '/v1/ops/picking-sessions/:picking_session_id/scans',
    {
      config: write,
      schema: {
        operationId: 'createPickScan',
        tags,
        summary: 'Record a pick scan (bin, item, lot, tote) checked against the walk; `short` reports units not found',
        description:
          'Refused with 409 for a wrong bin, wrong item, wrong lot, wrong tote, more than needed or an expired lot (unless allow_expired), ' +
          'and 422 for an unknown bin or barcode; every refusal carries `expected` (the next bin, sku, lot, quantity and tote). ' +
          'With an Idempotency-Key header a retried scan applies once. docs/floor.md.',
        params: SessionParams,
        body: PickScanBody,
        response: { 200: PickScanResponse },
      },
    },
    async (request, reply) => {
      const { picking_session_id } = request.params as Static<typeof SessionParams>;
      const { teamId, connection } = request.principal; // a user (agent connection) is recorded as the picker
      const picker = { teamId, user: connection && { userId: connection.userId, userName: connection.userName } };
      const body = request.body as Static<typeof PickScanBody>;
      return sendAnswer(reply, await recordScan(app.db, picker, picking_session_id, body, idempotencyKeyOf(request)));
    },
  );

  app.delete(
    '/v1/ops/picking-sessions/:picking_session_id/scans/:scan_id',
    {
      config: write,
      schema: {
        operationId: 'deletePickScan',
        tags,
        summary: 'Undo a pick scan: its units are to pick again (a short report is withdrawn)',
        params: ScanParams,
        response: { 204: { type: 'null', description: 'Undone' } },
      },
    },
    async (request, reply) => {
      const { picking_session_id, scan_id } = request.params as Static<typeof ScanParams>;
      await undoScan(app.db, request.principal.teamId, picking_session_id, scan_id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v1/ops/picking-sessions/:picking_session_id',
    {
      config: read,
      schema: {
        operationId: 'getPickingSession',
        tags,
        summary: 'Get a picking session',
        params: SessionParams,
        response: { 200: PickingSessionSchema },
      },
    },
    async (request) => {
      const { picking_session_id } = request.params as Static<typeof SessionParams>;
      return getSession(app.db, request.principal.teamId, picking_session_id);
    },
  );

  app.post(
    '/v1/ops/picking-sessions/:picking_session_id/fulfillment-orders',
    {
      config: write,
      schema: {
        operationId: 'assignPickingSessionFulfillmentOrders',
        tags,
        summary: 'Add fulfillment orders of this team to a picking session, optionally into a tote',
        params: SessionParams,
        body: AssignBody,
        response: { 200: AssignResponse },
      },
    },
    async (request) => {
      const { picking_session_id } = request.params as Static<typeof SessionParams>;
      return assignFulfillmentOrders(app.db, request.principal.teamId, picking_session_id, request.body as Static<typeof AssignBody>);
    },
  );

  app.get(
    '/v1/ops/totes',
    {
      config: read,
      schema: {
        operationId: 'listTotes',
        tags,
        summary: 'List totes by name',
        querystring: ToteListQuery,
        response: { 200: listOf(ToteSchema) },
      },
    },
    async (request) => listTotes(app.db, request.principal.teamId, request.query as Static<typeof ToteListQuery>),
  );

  app.post(
    '/v1/ops/totes',
    {
      config: write,
      schema: { operationId: 'createTote', tags, summary: 'Create a tote', body: NameBody, response: { 201: ToteSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await createTote(app.db, request.principal.teamId, request.body as Static<typeof NameBody>)),
  );
}
