import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ChargeSchema, CHARGE_CATEGORIES } from '../../../contract/charges.js';
import { Day, IdParams, StringEnum, listOf, pageQuery, sortOrder } from '../../../contract/common.js';
import { InvoiceSchema, MerchantInvoiceExportQuery, MerchantInvoiceListQuery } from '../../../contract/invoices.js';
import { chargeView } from '../../../domain/charges/index.js';
import { getMerchantCharge, listMerchantCharges } from '../../../domain/charges/index.js';
import { getInvoice, getInvoiceView, listInvoiceViews } from '../../../domain/invoices/index.js';
import { PDF_RESPONSE } from '../documents.js';
import { CSV_RESPONSE, replyInvoiceCsv, replyInvoicePdf } from '../invoice-files.js';

// What a merchant sees of its bill (docs/invoices.md): the charges billed to its team and its
// invoices from FINALIZED on (drafts are the fulfiller's), with the PDF and the charges CSV.

const tags = ['Invoices'];
const read = { permission: 'READ_CHARGES', family: 'merchant' } as const;

export const MerchantChargeListQuery = Type.Object({
  ...pageQuery(),
  category: Type.Optional(StringEnum(CHARGE_CATEGORIES)),
  period_start: Type.Optional(Day('charges made on or after this day (UTC)')),
  period_end: Type.Optional(Day('charges made on or before this day (UTC)')),
  invoice_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'the invoice the charges are on; none: not invoiced yet' }),
  ),
  order: sortOrder,
});

export default async function routes(app: FastifyInstance) {
  const mine = (teamId: string) => ({ merchantTeamId: teamId });

  app.get<{ Querystring: Static<typeof MerchantChargeListQuery> }>(
    '/v1/merchant/charges',
    {
      config: read,
      schema: {
        operationId: 'listMerchantCharges',
        tags,
        summary: 'List the charges billed to this merchant team, newest first by default',
        querystring: MerchantChargeListQuery,
        response: { 200: listOf(ChargeSchema) },
      },
    },
    async (request) => {
      const page = await listMerchantCharges(app.db, request.principal.teamId, request.query);
      return { data: page.data.map(chargeView), meta: page.meta };
    },
  );

  const ChargeParams = IdParams('charge_id');
  app.get<{ Params: Static<typeof ChargeParams> }>(
    '/v1/merchant/charges/:charge_id',
    {
      config: read,
      schema: {
        operationId: 'getMerchantCharge',
        tags,
        summary: 'Get a charge billed to this team',
        params: ChargeParams,
        response: { 200: ChargeSchema },
      },
    },
    async (request) => chargeView(await getMerchantCharge(app.db, request.principal.teamId, request.params.charge_id)),
  );

  app.get<{ Querystring: Static<typeof MerchantInvoiceListQuery> }>(
    '/v1/merchant/invoices',
    {
      config: read,
      schema: {
        operationId: 'listMerchantInvoices',
        tags,
        summary: "List this merchant team's invoices (finalized and later), newest first by default",
        querystring: MerchantInvoiceListQuery,
        response: { 200: listOf(InvoiceSchema) },
      },
    },
    async (request) => listInvoiceViews(app.db, mine(request.principal.teamId), request.query),
  );

  const Params = IdParams('invoice_id');
  app.get<{ Params: Static<typeof Params> }>(
    '/v1/merchant/invoices/:invoice_id',
    {
      config: read,
      schema: {
        operationId: 'getMerchantInvoice',
        tags,
        summary: 'Get an invoice of this team',
        params: Params,
        response: { 200: InvoiceSchema },
      },
    },
    async (request) => getInvoiceView(app.db, mine(request.principal.teamId), request.params.invoice_id),
  );

  app.get<{ Params: Static<typeof Params> }>(
    '/v1/merchant/invoices/:invoice_id/pdf',
    {
      config: read,
      schema: {
        operationId: 'getMerchantInvoicePdf',
        tags,
        summary: 'Download an invoice of this team as a PDF',
        params: Params,
        response: PDF_RESPONSE,
      },
    },
    async (request, reply) => {
      const inv = await getInvoice(app.db, mine(request.principal.teamId), request.params.invoice_id);
      return replyInvoicePdf(app, reply, inv);
    },
  );

  app.get<{ Params: Static<typeof Params>; Querystring: Static<typeof MerchantInvoiceExportQuery> }>(
    '/v1/merchant/invoices/:invoice_id/export',
    {
      config: read,
      schema: {
        operationId: 'exportMerchantInvoice',
        tags,
        summary: "An invoice's charges as CSV",
        params: Params,
        querystring: MerchantInvoiceExportQuery,
        response: CSV_RESPONSE,
      },
    },
    async (request, reply) => {
      const inv = await getInvoice(app.db, mine(request.principal.teamId), request.params.invoice_id);
      return replyInvoiceCsv(app, reply, inv, 'charges');
    },
  );
}
