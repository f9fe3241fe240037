import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { importInvoice } from '../../../domain/carrier-invoices/index.js';
import { getImport, listImports } from '../../../domain/carrier-invoices/index.js';
import {
  ImportInvoiceBody,
  InvoiceImportListQuery,
  InvoiceImportListSchema,
  InvoiceImportParams,
  InvoiceImportSchema,
} from '../../../contract/carrier-invoices.js';

// Carrier invoice imports: label cost corrections billed to merchants (issue 12 item 3;
// docs/carrier-invoices.md).

const tags = ['Charges'];
const read = { permission: 'READ_CHARGES', family: 'ops' } as const;
const write = { permission: 'WRITE_CHARGES', family: 'ops' } as const;

export default async function routes(app: FastifyInstance) {
  app.post<{ Body: Static<typeof ImportInvoiceBody> }>(
    '/v1/ops/carrier-invoices',
    {
      config: write,
      schema: {
        operationId: 'importCarrierInvoice',
        tags,
        summary: 'Import a carrier invoice: correct label costs and bill the differences',
        description:
          "Each line is matched to a label of the team by tracking_number; the label's carrier_correction records it " +
          "(version, source_import { filename, import_id }, invoice, amounts), and when the label's shipping was billed the " +
          "difference is billed (or credited) to the merchant as a SHIPPING charge with the rate card's markup. Unmatched " +
          'lines are reported, not refused. The same lines again answer 200 with the first result and replayed: true; ' +
          'a line the label already has (same invoice number and cost) changes nothing. Emits shipping_label.corrected.',
        body: ImportInvoiceBody,
        response: { 201: InvoiceImportSchema, 200: InvoiceImportSchema },
      },
    },
    async (request, reply) => {
      const { result, created } = await importInvoice(
        app.db,
        { teamId: request.principal.teamId, keyId: request.principal.keyId },
        request.body,
      );
      return reply.code(created ? 201 : 200).send(result);
    },
  );

  app.get<{ Querystring: Static<typeof InvoiceImportListQuery> }>(
    '/v1/ops/carrier-invoices',
    {
      config: read,
      schema: {
        operationId: 'listCarrierInvoiceImports',
        tags,
        summary: 'List carrier invoice imports, newest first',
        querystring: InvoiceImportListQuery,
        response: { 200: InvoiceImportListSchema },
      },
    },
    async (request) => listImports(app.db, request.principal.teamId, request.query),
  );

  app.get<{ Params: Static<typeof InvoiceImportParams> }>(
    '/v1/ops/carrier-invoices/:import_id',
    {
      config: read,
      schema: {
        operationId: 'getCarrierInvoiceImport',
        tags,
        summary: 'Get a carrier invoice import (its result)',
        params: InvoiceImportParams,
        response: { 200: InvoiceImportSchema },
      },
    },
    async (request) => getImport(app.db, request.principal.teamId, request.params.import_id),
  );
}
