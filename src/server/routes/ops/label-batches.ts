import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { labelBatchCsv, labelBatchFile } from '../../../domain/documents/index.js';
import { createLabelBatch } from '../../../domain/label-batches/index.js';
import { listLabelBatches, loadLabelBatch } from '../../../domain/label-batches/index.js';
import {
  CreateLabelBatchBody,
  LabelBatchListQuery,
  LabelBatchListSchema,
  LabelBatchParams,
  LabelBatchSchema,
} from '../../../contract/label-batches.js';
import { sendDocument } from '../documents.js';

// Label batches: many packages labelled by one request, one merged file (docs/label-batches.md).

const tags = ['Packages'];
const read = { permission: 'READ_FULFILLMENTS', family: 'ops' } as const;
const write = { permission: 'WRITE_FULFILLMENTS', family: 'ops' } as const;
type Params = { Params: Static<typeof LabelBatchParams> };

const FILE_RESPONSE = {
  200: {
    description: 'The labels bought, in the batch order: a PDF (4x6 pages) or a ZPL stream, as the batch label_format',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/x-zpl': { schema: { type: 'string' } },
    },
  },
};

export default async function routes(app: FastifyInstance) {
  app.post<{ Body: Static<typeof CreateLabelBatchBody> }>(
    '/v1/ops/label-batches',
    {
      config: write,
      schema: {
        operationId: 'createLabelBatch',
        tags,
        summary: 'Buy labels for many packages at once (a batch)',
        description:
          'Names the packages one way: package_ids, picking_session_id (its open packages in pick order) or ' +
          "fulfillment_order_ids (their open packages). Answers 202 with the batch; the server buys each package's label " +
          "(rate_strategy with its options, else the package's, else CHEAPEST; optionally only carrier_id / service_id), a few at a time, " +
          'never twice (a package labelled meanwhile is SKIPPED; a refusal is FAILED with its reason), resuming after a ' +
          'restart. GET …/{id} reports progress; …/labels is the merged file; label_batch.completed fires at the end.',
        body: CreateLabelBatchBody,
        response: { 202: LabelBatchSchema },
      },
    },
    async (request, reply) => {
      const batch = await createLabelBatch(
        app.db,
        { teamId: request.principal.teamId, keyId: request.principal.keyId },
        request.body,
        app.originOf(request),
      );
      app.labelBatches.kick();
      return reply.code(202).send(batch);
    },
  );

  app.get<{ Querystring: Static<typeof LabelBatchListQuery> }>(
    '/v1/ops/label-batches',
    {
      config: read,
      schema: {
        operationId: 'listLabelBatches',
        tags,
        summary: 'List label batches, newest first',
        querystring: LabelBatchListQuery,
        response: { 200: LabelBatchListSchema },
      },
    },
    async (request) => listLabelBatches(app.db, request.principal.teamId, request.query),
  );

  app.get<Params>(
    '/v1/ops/label-batches/:label_batch_id',
    {
      config: read,
      schema: {
        operationId: 'getLabelBatch',
        tags,
        summary: 'Get a label batch: its progress and every package outcome',
        params: LabelBatchParams,
        response: { 200: LabelBatchSchema },
      },
    },
    async (request) => loadLabelBatch(app.db.prisma, request.principal.teamId, request.params.label_batch_id),
  );

  app.get<Params>(
    '/v1/ops/label-batches/:label_batch_id/labels',
    {
      config: read,
      schema: {
        operationId: 'getLabelBatchLabels',
        tags,
        summary: 'The labels a batch bought, as one file to print',
        description:
          'PDF: each label a 4x6 page (followed by its packing slip when the batch has packing_slips), in the batch order; ' +
          'ZPL: the labels one after another. Only BOUGHT items; 409 before the first is bought.',
        params: LabelBatchParams,
        response: FILE_RESPONSE,
      },
    },
    async (request, reply) => {
      const id = request.params.label_batch_id;
      const file = await labelBatchFile(app.db, request.principal.teamId, id);
      return sendDocument(reply, file.bytes, `label-batch-${id}.${file.ext}`);
    },
  );

  app.get<Params>(
    '/v1/ops/label-batches/:label_batch_id/summary.csv',
    {
      config: read,
      schema: {
        operationId: 'getLabelBatchSummary',
        tags,
        summary: 'A CSV of the batch items: position, package, outcome, tracking, cost, reason',
        params: LabelBatchParams,
        response: { 200: { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      const id = request.params.label_batch_id;
      const csv = await labelBatchCsv(app.db, request.principal.teamId, id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `inline; filename="label-batch-${id}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );
}
