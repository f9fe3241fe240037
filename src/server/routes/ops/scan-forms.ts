import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { scanFormPdf } from '../../../domain/documents/index.js';
import { createScanForm } from '../../../domain/scan-forms/index.js';
import { listScanForms, loadScanForm } from '../../../domain/scan-forms/index.js';
import { CreateScanFormBody, ScanFormListQuery, ScanFormListSchema, ScanFormParams, ScanFormSchema } from '../../../contract/scan-forms.js';
import { PDF_RESPONSE, sendDocument } from '../documents.js';

// Scan forms: end-of-day manifests (issue 12 item 2; docs/scan-forms.md).

const tags = ['Packages'];
const read = { permission: 'READ_FULFILLMENTS', family: 'ops' } as const;
const write = { permission: 'WRITE_FULFILLMENTS', family: 'ops' } as const;
type Params = { Params: Static<typeof ScanFormParams> };

export default async function routes(app: FastifyInstance) {
  app.post<{ Body: Static<typeof CreateScanFormBody> }>(
    '/v1/ops/scan-forms',
    {
      config: write,
      schema: {
        operationId: 'createScanForm',
        tags,
        summary: 'Make the end-of-day scan form of a warehouse and carrier',
        description:
          'Gathers the packages of the warehouse whose unvoided label of carrier_id was bought on `date` (UTC, default ' +
          'today) and that are on no scan form yet (or only package_ids): each gets scan_form_id and manifested_at, its label ' +
          'scan_status SCANNED, and can no longer be voided. 409 when nothing qualifies. Emits scan_form.created.',
        body: CreateScanFormBody,
        response: { 201: ScanFormSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await createScanForm(
            app.db,
            { teamId: request.principal.teamId, keyId: request.principal.keyId },
            request.body,
            `${request.protocol}://${request.host}`,
          ),
        ),
  );

  app.get<{ Querystring: Static<typeof ScanFormListQuery> }>(
    '/v1/ops/scan-forms',
    {
      config: read,
      schema: {
        operationId: 'listScanForms',
        tags,
        summary: 'List scan forms, newest first',
        querystring: ScanFormListQuery,
        response: { 200: ScanFormListSchema },
      },
    },
    async (request) => listScanForms(app.db, request.principal.teamId, request.query),
  );

  app.get<Params>(
    '/v1/ops/scan-forms/:scan_form_id',
    {
      config: read,
      schema: {
        operationId: 'getScanForm',
        tags,
        summary: 'Get a scan form (its packages: GET /v1/ops/packages?scan_form_id=)',
        params: ScanFormParams,
        response: { 200: ScanFormSchema },
      },
    },
    async (request) => loadScanForm(app.db.prisma, request.principal.teamId, request.params.scan_form_id),
  );

  app.get<Params>(
    '/v1/ops/scan-forms/:scan_form_id/manifest',
    {
      config: read,
      schema: {
        operationId: 'getScanFormManifest',
        tags,
        summary: 'The manifest of a scan form (PDF)',
        description:
          'US Letter: carrier, warehouse, day, the form id as a Code 128 barcode, one row per package (tracking number, ' +
          'service, weight, order) and a signature line for the driver.',
        params: ScanFormParams,
        response: PDF_RESPONSE,
      },
    },
    async (request, reply) =>
      sendDocument(
        reply,
        await scanFormPdf(app.db, request.principal.teamId, request.params.scan_form_id),
        `scan-form-${request.params.scan_form_id}.pdf`,
      ),
  );
}
