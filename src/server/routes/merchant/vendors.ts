import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { vendors } from '../../../domain/vendors/index.js';
import { listOf } from '../../../contract/common.js';
import { CreateVendorBody, UpdateVendorBody, VendorListQuery, VendorParams, VendorSchema } from '../../../contract/vendors.js';

// Vendors, merchant family (spec 4.4, record 2.5): merchant keys; their team's vendors.
// GET list and GET one are extensions to the spec's POST and PATCH.

const tags = ['Vendors'];
const read = { permission: 'READ_VENDORS', family: 'merchant' } as const;
const write = { permission: 'WRITE_VENDORS', family: 'merchant' } as const;
type Params = { Params: Static<typeof VendorParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof VendorListQuery> }>(
    '/v1/merchant/vendors',
    {
      config: read,
      schema: {
        operationId: 'listVendors',
        tags,
        summary: "List the merchant team's vendors",
        description: 'Newest first by default (order_by created_at, order desc).',
        querystring: VendorListQuery,
        response: { 200: listOf(VendorSchema) },
      },
    },
    async (request) => vendors.listVendors(app.db, request.principal, request.query),
  );

  app.post<{ Body: Static<typeof CreateVendorBody> }>(
    '/v1/merchant/vendors',
    {
      config: write,
      schema: {
        operationId: 'createVendor',
        tags,
        summary: 'Create a vendor',
        description:
          "vendor_name is required. The vendor belongs to the caller's merchant team; its fulfiller team is " +
          "the team's delegated fulfiller when there is exactly one.",
        body: CreateVendorBody,
        response: { 201: VendorSchema },
      },
    },
    async (request, reply) => {
      const vendor = await vendors.createVendor(app.db, request.principal, request.body);
      return reply.code(201).send(vendor);
    },
  );

  app.get<Params>(
    '/v1/merchant/vendors/:vendor_id',
    {
      config: read,
      schema: {
        operationId: 'getVendor',
        tags,
        summary: 'Get a vendor',
        params: VendorParams,
        response: { 200: VendorSchema },
      },
    },
    async (request) => vendors.getVendor(app.db, request.principal, request.params.vendor_id),
  );

  app.patch<Params & { Body: Static<typeof UpdateVendorBody> }>(
    '/v1/merchant/vendors/:vendor_id',
    {
      config: write,
      schema: {
        operationId: 'updateVendor',
        tags,
        summary: 'Update a vendor (partial)',
        description: 'Only the fields sent change. product_ids: omitted keeps the links, [] removes all, an array replaces all.',
        params: VendorParams,
        body: UpdateVendorBody,
        response: { 200: VendorSchema },
      },
    },
    async (request) => vendors.updateVendor(app.db, request.principal, request.params.vendor_id, request.body),
  );
}
