import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { IdParams, listOf } from '../../../contract/common.js';
import {
  BillingProfileBody,
  BillingProfileSchema,
  GenerateInvoiceBody,
  InvoiceExportQuery,
  InvoiceListQuery,
  InvoiceSchema,
  InvoiceTermsBody,
  InvoiceTermsSchema,
  PayInvoiceBody,
  VoidInvoiceBody,
} from '../../../contract/invoices.js';
import type { Invoice } from '../../../db/types.js';
import { generateInvoice, regenerateInvoice } from '../../../domain/invoices/index.js';
import { rerateInvoice } from '../../../domain/invoices/index.js';
import { invoices } from '../../../domain/invoices/index.js';
import { finalizeInvoice, payInvoice, sendInvoice, voidInvoice } from '../../../domain/invoices/index.js';
import { presentInvoice } from '../../../domain/invoices/index.js';
import { PDF_RESPONSE } from '../documents.js';
import { CSV_RESPONSE, replyInvoiceCsv, replyInvoicePdf } from '../invoice-files.js';

// Invoices, ops family (docs/invoices.md): drafts made by the period close or on demand, their
// lifecycle, the PDF and CSV files; a delegation's invoice terms and the team's billing profile.

const tags = ['Invoices'];
const read = { permission: 'READ_CHARGES', family: 'ops' } as const;
const write = { permission: 'WRITE_CHARGES', family: 'ops' } as const;
const Params = IdParams('invoice_id');
type P = { Params: Static<typeof Params> };

export default async function routes(app: FastifyInstance) {
  const own = (teamId: string) => ({ fulfillerTeamId: teamId });

  app.get<{ Querystring: Static<typeof InvoiceListQuery> }>(
    '/v1/ops/invoices',
    {
      config: read,
      schema: {
        operationId: 'listInvoices',
        tags,
        summary: 'List invoices issued by this team, newest first by default',
        querystring: InvoiceListQuery,
        response: { 200: listOf(InvoiceSchema) },
      },
    },
    async (request) => invoices.listInvoiceViews(app.db, own(request.principal.teamId), request.query),
  );

  app.post<{ Body: Static<typeof GenerateInvoiceBody> }>(
    '/v1/ops/invoices',
    {
      config: write,
      schema: {
        operationId: 'generateInvoice',
        tags,
        summary: "Generate the draft invoice of a merchant's period (201), or regenerate its live draft (200)",
        description:
          "Claims the merchant's charges of the period not on another invoice. A FINALIZED, SENT or PAID invoice of the same period is a 409: void it first.",
        body: GenerateInvoiceBody,
        response: { 200: InvoiceSchema, 201: InvoiceSchema },
      },
    },
    async (request, reply) => {
      const { invoice, created } = await generateInvoice(app.db, request.principal.teamId, request.body);
      return reply.code(created ? 201 : 200).send(await presentInvoice(app.db.prisma, invoice));
    },
  );

  app.get<P>(
    '/v1/ops/invoices/:invoice_id',
    {
      config: read,
      schema: { operationId: 'getInvoice', tags, summary: 'Get an invoice', params: Params, response: { 200: InvoiceSchema } },
    },
    async (request) => invoices.getInvoiceView(app.db, own(request.principal.teamId), request.params.invoice_id),
  );

  const transition = (
    path: string,
    operationId: string,
    summary: string,
    run: (teamId: string, id: string, body: Record<string, string | undefined>) => Promise<Invoice>,
    body?: typeof PayInvoiceBody | typeof VoidInvoiceBody,
  ) =>
    app.post<P>(
      `/v1/ops/invoices/:invoice_id/${path}`,
      {
        config: write,
        schema: { operationId, tags, summary, params: Params, ...(body ? { body } : {}), response: { 200: InvoiceSchema } },
        // Every member of these bodies is optional: no body at all means {}.
        preValidation: (request, _reply, done) => {
          request.body ??= {};
          done();
        },
      },
      async (request) =>
        presentInvoice(
          app.db.prisma,
          await run(request.principal.teamId, request.params.invoice_id, (request.body ?? {}) as Record<string, string | undefined>),
        ),
    );
  transition(
    'regenerate',
    'regenerateInvoice',
    "Regenerate a draft: the period's charges not on an invoice claimed, lines and totals summed again",
    (t, id) => regenerateInvoice(app.db, t, id),
  );
  transition(
    'rerate',
    'rerateInvoice',
    "Re-rate a draft: its charges priced again by the rate-card version in force at each event's time, then regenerated",
    (t, id) => rerateInvoice(app.db, t, id),
  );
  transition(
    'finalize',
    'finalizeInvoice',
    'Finalize a draft once its period has ended: it gets the next number (no gaps) and a due date; invoice.finalized',
    (t, id) => finalizeInvoice(app.db, t, id, app.now()),
  );
  transition('send', 'sendInvoice', 'Mark a finalized invoice sent to the merchant', (t, id) => sendInvoice(app.db, t, id, app.now()));
  transition(
    'pay',
    'payInvoice',
    'Mark a finalized or sent invoice paid',
    (t, id, b) => payInvoice(app.db, t, id, app.now(), b),
    PayInvoiceBody,
  );
  transition(
    'void',
    'voidInvoice',
    'Void an invoice (not a paid one): its charges go to the next invoice generated for the period; a number stays taken',
    (t, id, b) => voidInvoice(app.db, t, id, app.now(), b),
    VoidInvoiceBody,
  );

  app.get<P>(
    '/v1/ops/invoices/:invoice_id/pdf',
    {
      config: read,
      schema: { operationId: 'getInvoicePdf', tags, summary: 'The invoice as a PDF (US Letter)', params: Params, response: PDF_RESPONSE },
    },
    async (request, reply) => {
      const inv = await invoices.getInvoice(app.db, own(request.principal.teamId), request.params.invoice_id);
      return replyInvoicePdf(app, reply, inv);
    },
  );

  app.get<P & { Querystring: Static<typeof InvoiceExportQuery> }>(
    '/v1/ops/invoices/:invoice_id/export',
    {
      config: read,
      schema: {
        operationId: 'exportInvoice',
        tags,
        summary: "An invoice as CSV: its charges, or QuickBooks Online's or Xero's invoice import",
        params: Params,
        querystring: InvoiceExportQuery,
        response: CSV_RESPONSE,
      },
    },
    async (request, reply) => {
      const inv = await invoices.getInvoice(app.db, own(request.principal.teamId), request.params.invoice_id);
      const { format, ...opts } = request.query;
      return replyInvoiceCsv(app, reply, inv, format, opts);
    },
  );

  const DelegationParams = IdParams('delegation_id');
  app.get<{ Params: Static<typeof DelegationParams> }>(
    '/v1/ops/delegations/:delegation_id/invoice-terms',
    {
      config: read,
      schema: {
        operationId: 'getInvoiceTerms',
        tags,
        summary: "A delegation's invoice terms: period, tax line, payment terms, bill-to address",
        params: DelegationParams,
        response: { 200: InvoiceTermsSchema },
      },
    },
    async (request) => invoices.getTerms(app.db, request.principal.teamId, request.params.delegation_id),
  );

  app.patch<{ Params: Static<typeof DelegationParams>; Body: Static<typeof InvoiceTermsBody> }>(
    '/v1/ops/delegations/:delegation_id/invoice-terms',
    {
      config: write,
      schema: {
        operationId: 'updateInvoiceTerms',
        tags,
        summary: "Change a delegation's invoice terms (a new period applies from the first day not yet closed)",
        params: DelegationParams,
        body: InvoiceTermsBody,
        response: { 200: InvoiceTermsSchema },
      },
    },
    async (request) => invoices.updateTerms(app.db, request.principal.teamId, request.params.delegation_id, request.body as never),
  );

  app.get(
    '/v1/ops/billing-profile',
    {
      config: read,
      schema: {
        operationId: 'getBillingProfile',
        tags,
        summary: "What this team's invoices say about it: name, address, tax id, logo, number prefix, footer",
        response: { 200: BillingProfileSchema },
      },
    },
    async (request) => invoices.getProfile(app.db, request.principal.teamId),
  );

  app.patch<{ Body: Static<typeof BillingProfileBody> }>(
    '/v1/ops/billing-profile',
    {
      config: write,
      schema: {
        operationId: 'updateBillingProfile',
        tags,
        summary: "Change this team's billing profile (logo_file_id: a PNG or JPEG of the team's files)",
        body: BillingProfileBody,
        response: { 200: BillingProfileSchema },
      },
    },
    async (request) => invoices.updateProfile(app.db, request.principal.teamId, request.body as never),
  );
}
