import { withDeadline } from '../../../net/deadlines.js';
import type { FastifyInstance } from 'fastify';
import { fetchList } from './list-fetch.js';
import type { Static } from 'typebox';
import { invalid } from '../../../domain/errors.js';
import { fulfillPackage } from '../../../domain/fulfillment/index.js';
import { labelWithPackingSlipPdf } from '../../../domain/documents/index.js';
import { packingSlipPdf } from '../../../domain/documents/index.js';
import { labelPdf, labelZpl } from '../../../domain/documents/index.js';
import { voidLabel } from '../../../domain/fulfillment/index.js';
import { labelPackage } from '../../../domain/fulfillment/index.js';
import { packages } from '../../../domain/fulfillment/index.js';
import {
  CreatePackageBody,
  FulfillBody,
  FulfillResponse,
  LabelBody,
  LabelDocumentQuery,
  PackageListQuery,
  PackageListSchema,
  PackageParams,
  PackageSchema,
  UpdatePackageBody,
} from '../../../contract/packages.js';
import { PDF_RESPONSE, sendDocument } from '../documents.js';

// Packages, labels and fulfill (spec 2.7, 4.6 steps 4-6, 4.7; docs/fulfillment.md).

const read = { permission: 'READ_FULFILLMENTS', family: 'ops' } as const;
const write = { permission: 'WRITE_FULFILLMENTS', family: 'ops' } as const;
const tags = ['Packages'];
type Params = Static<typeof PackageParams>;

export default async function routes(app: FastifyInstance) {
  app.post<{ Body: Static<typeof CreatePackageBody> }>(
    '/v1/ops/packages',
    {
      config: write,
      schema: {
        operationId: 'createPackage',
        tags,
        summary: 'Create a package for a fulfillment order',
        description:
          'Line items must belong to the fulfillment order; per line the quantity plus what other open packages ' +
          'hold never exceeds what remains unfulfilled (409). With idempotency_key (or the Idempotency-Key header) a ' +
          'repeated request returns the first package with 200; the same key with a different body is a 409.',
        body: CreatePackageBody,
        response: { 201: PackageSchema, 200: PackageSchema },
      },
    },
    async (request, reply) => {
      const header = request.headers['idempotency-key'];
      const headerKey = Array.isArray(header) ? header[0] : header;
      const body = request.body;
      if (headerKey && body.idempotency_key && headerKey !== body.idempotency_key) {
        throw invalid('body.idempotency_key', 'differs from the Idempotency-Key header');
      }
      const { package: pkg, created } = await packages.createPackage(
        app.db,
        request.principal,
        {
          ...body,
          idempotency_key: body.idempotency_key ?? headerKey,
        },
        `${request.protocol}://${request.host}`,
      );
      return reply.code(created ? 201 : 200).send(pkg);
    },
  );

  app.get<{ Querystring: Static<typeof PackageListQuery> }>(
    '/v1/ops/packages',
    {
      config: read,
      schema: {
        operationId: 'listPackages',
        tags,
        summary: 'List packages (newest first)',
        querystring: PackageListQuery,
        response: { 200: PackageListSchema },
      },
    },
    async (request) => {
      return fetchList.packages(app.db, request.principal, request.query);
    },
  );

  app.get<{ Params: Params }>(
    '/v1/ops/packages/:package_id',
    {
      config: read,
      schema: {
        operationId: 'getPackage',
        tags,
        summary: 'Get a package',
        params: PackageParams,
        response: { 200: PackageSchema },
      },
    },
    async (request) => packages.getPackage(app.db, request.principal.teamId, request.params.package_id),
  );

  app.patch<{ Params: Params; Body: Static<typeof UpdatePackageBody> }>(
    '/v1/ops/packages/:package_id',
    {
      config: write,
      schema: {
        operationId: 'updatePackage',
        tags,
        summary: 'Update a package',
        description:
          'fulfillment_order_id and type are immutable (a different value is a 400). package_line_items, when sent, ' +
          'replaces the lines: with id updated, without id created, missing deleted; validated as at create. ' +
          'Fulfilled packages cannot change (409).',
        params: PackageParams,
        body: UpdatePackageBody,
        response: { 200: PackageSchema },
      },
    },
    async (request) => packages.updatePackage(app.db, request.principal.teamId, request.params.package_id, request.body),
  );

  app.post<{ Params: Params; Body: Static<typeof LabelBody> }>(
    '/v1/ops/packages/:package_id/label',
    {
      config: write,
      schema: {
        operationId: 'labelPackage',
        tags,
        summary: 'Attach a shipping label (upload, or buy the cheapest rate)',
        description:
          'Upload: label_url, tracking_number, carrier, service, cost, cost_currency. Rate shopping: ' +
          '{ rate_strategy: CHEAPEST, FASTEST or CHEAPEST_WITHIN_DAYS with rate_within_days; rate_exclude_carrier_ids } (optionally ' +
          "carrier_id / service_id; {} uses the package's) quotes " +
          "every enabled carrier integration of the package's warehouse in parallel (a slow one is cut off by a timeout) and buys " +
          'the chosen rate through its integration (EasyPost, Shippo: the label is downloaded and served at label_url; the rate ' +
          'table: fos draws it). When no service fits, 409 with rate_error_data (also stored on the package); when the strategy options leave none, 422 saying why. A purchase whose ' +
          'outcome is not yet known answers 503 with retry-after; the retry reconciles it and never buys twice. A labelled ' +
          'or fulfilled package cannot be labelled again (409).',
        params: PackageParams,
        body: LabelBody,
        response: { 200: PackageSchema },
      },
    },
    // Answers within 35 s whatever the carrier does: every carrier call is cut to the request's
    // deadline (FOS_DEADLINE_LABEL_MS, 33 s of calls); an unknown outcome is a 503 and reconciled.
    async (request) =>
      withDeadline('label', () =>
        labelPackage(app.db, request.principal.teamId, request.params.package_id, request.body, `${request.protocol}://${request.host}`, {
          allowPrivate: app.allowPrivateWebhooks,
        }),
      ),
  );

  app.get<{ Params: Params; Querystring: Static<typeof LabelDocumentQuery> }>(
    '/v1/ops/packages/:package_id/label',
    {
      config: read,
      schema: {
        operationId: 'getShippingLabelDocument',
        tags,
        summary: 'Printable shipping label of a package (4x6 PDF or ZPL)',
        description:
          'The label_url of a label bought by rate shopping: carrier and service, from and to addresses, the ' +
          'tracking number as a Code 128 barcode, weight and reference. format=pdf (default, 4x6 in) or zpl (203 dpi ' +
          'thermal printers). 404 when the package has no (unvoided) label; 409 for an uploaded label, which prints from ' +
          'its own URL.',
        params: PackageParams,
        querystring: LabelDocumentQuery,
        response: {
          200: {
            description: 'A PDF document, or ZPL text',
            content: {
              'application/pdf': { schema: { type: 'string', format: 'binary' } },
              'application/x-zpl': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const id = request.params.package_id;
      if (request.query.format === 'zpl')
        return sendDocument(reply, await labelZpl(app.db, request.principal.teamId, id), `label-${id}.zpl`);
      return sendDocument(reply, await labelPdf(app.db, request.principal.teamId, id), `label-${id}.pdf`);
    },
  );

  app.get<{ Params: Params }>(
    '/v1/ops/packages/:package_id/packing-slip',
    {
      config: read,
      schema: {
        operationId: 'getPackingSlip',
        tags,
        summary: 'Packing slip of a package (PDF)',
        description:
          'Rendered on request from the package as it is now. ' +
          'config.show_prices_on_packing_slip adds unit prices and line totals; config.show_unfulfilled_items_on_packing_list ' +
          "adds the fulfillment order's units not in this package and not yet fulfilled.",
        params: PackageParams,
        response: PDF_RESPONSE,
      },
    },
    async (request, reply) =>
      sendDocument(
        reply,
        await packingSlipPdf(app.db, request.principal.teamId, request.params.package_id),
        `packing-slip-${request.params.package_id}.pdf`,
      ),
  );

  app.get<{ Params: Params }>(
    '/v1/ops/packages/:package_id/label-with-packing-slip',
    {
      config: read,
      schema: {
        operationId: 'getLabelWithPackingSlip',
        tags,
        summary: 'Shipping label followed by the packing slip (one PDF)',
        description:
          'The label_with_packing_slip_url of a label bought by rate shopping: the 4x6 label page, then the packing ' +
          "slip pages, in one PDF whatever the label's own format. 404 when the package has no (unvoided) label; 409 for an " +
          'uploaded label.',
        params: PackageParams,
        response: PDF_RESPONSE,
      },
    },
    async (request, reply) =>
      sendDocument(
        reply,
        await labelWithPackingSlipPdf(app.db, request.principal.teamId, request.params.package_id),
        `label-and-slip-${request.params.package_id}.pdf`,
      ),
  );

  app.post<{ Params: Params }>(
    '/v1/ops/packages/:package_id/label/void',
    {
      config: write,
      schema: {
        operationId: 'voidPackageLabel',
        tags,
        summary: 'Void the shipping label of an unfulfilled package',
        description:
          'Only before fulfillment: the label gets refund_status SUBMITTED and voided_at, the package loses its ' +
          'shipment_status and can be labelled again (which replaces the voided label). Shipping is billed at fulfill, so a ' +
          'voided label is never billed. A fulfilled package, a package without a label or an already voided label is a 409; ' +
          'of a void racing a fulfill exactly one succeeds. Emits package.label_voided.',
        params: PackageParams,
        response: { 200: PackageSchema },
      },
    },
    async (request) => voidLabel(app.db, request.principal.teamId, request.params.package_id, { allowPrivate: app.allowPrivateWebhooks }),
  );

  app.post<{ Params: Params; Body: Static<typeof FulfillBody> }>(
    '/v1/ops/packages/:package_id/fulfill',
    {
      config: write,
      // No body is the same as {}: no locked_by, the fulfill locks for itself.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        operationId: 'fulfillPackage',
        tags,
        summary: 'Fulfill a labelled package',
        description:
          'One transaction: the fulfillment order must be locked by locked_by; decrements remaining quantities and ' +
          'inventory, records the fulfillment, bills shipping, queues the tracking push, releases the lock. ' +
          'A second fulfill of the same package is a 409 and changes nothing. Extension: without locked_by the fulfill ' +
          'locks the fulfillment order for itself (409 lock-held when another owner holds it). A package holding units ' +
          'recorded short (a short pick or pack) is refused (409 naming the SKU, the order number and the shortfall).',
        params: PackageParams,
        body: FulfillBody,
        response: { 200: FulfillResponse },
      },
    },
    async (request) => {
      const { connection } = request.principal; // work done through an agent connection is its person's
      return fulfillPackage(
        app.db,
        request.principal.teamId,
        request.params.package_id,
        request.body.locked_by,
        connection && { userId: connection.userId, userName: connection.userName },
      );
    },
  );
}
