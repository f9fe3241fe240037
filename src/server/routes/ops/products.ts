import type { FastifyInstance } from 'fastify';
import { fetchList } from './list-fetch.js';
import type { Static } from 'typebox';
import { bulkUpsertProducts } from '../../../domain/products/index.js';
import { products } from '../../../domain/products/index.js';
import { statusOf } from '../../problem.js';
import { idempotencyKeyOf, sendAnswer } from '../../idempotency.js';
import { listOf } from '../../../contract/common.js';
import {
  BulkProductsBody,
  BulkProductsResult,
  OpsCreateBody,
  OpsProductDetail,
  OpsProductListItem,
  OpsProductQuery,
  OpsProductWritten,
  OpsUpdateBody,
  ProductParams,
} from '../../../contract/products.js';

// Products, ops family (spec 4.2, records 2.3): fulfiller keys; their team's products and those
// of merchant teams delegated to it.

const tags = ['Products'];
const read = { permission: 'READ_PRODUCTS', family: 'ops' } as const;
const write = { permission: 'WRITE_PRODUCTS', family: 'ops' } as const;
type Params = { Params: Static<typeof ProductParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof OpsProductQuery> }>(
    '/v1/ops/products',
    {
      config: read,
      schema: {
        operationId: 'listOpsProducts',
        tags,
        summary: 'List products with inventory',
        description:
          "Newest first by default (order_by created_at, order desc). Inventory covers the caller's " +
          'warehouses; warehouse_id narrows it and lists only products with a stock level there.',
        querystring: OpsProductQuery,
        response: { 200: listOf(OpsProductListItem) },
      },
    },
    async (request) => fetchList.products(app.db, request.principal, request.query),
  );

  app.post<{ Body: Static<typeof OpsCreateBody> }>(
    '/v1/ops/products',
    {
      config: write,
      schema: {
        operationId: 'createOpsProduct',
        tags,
        summary: 'Create a product',
        description:
          "name and type are required. Units default to the owning team's measurement system. " +
          'merchant_team_id creates the product for a merchant team delegated to the caller.',
        body: OpsCreateBody,
        response: { 201: OpsProductWritten },
      },
    },
    async (request, reply) => {
      const product = await products.createOpsProduct(app.db, request.principal, request.body);
      return reply.code(201).send(product);
    },
  );

  app.get<Params>(
    '/v1/ops/products/:product_id',
    {
      config: read,
      schema: {
        operationId: 'getOpsProduct',
        tags,
        summary: 'Get a product',
        params: ProductParams,
        response: { 200: OpsProductDetail },
      },
    },
    async (request) => products.getOpsProduct(app.db, request.principal, request.params.product_id),
  );

  app.patch<Params & { Body: Static<typeof OpsUpdateBody> }>(
    '/v1/ops/products/:product_id',
    {
      config: write,
      schema: {
        operationId: 'updateOpsProduct',
        tags,
        summary: 'Update a product (partial)',
        description:
          'Only the fields sent change. bundle_components / assembly_components: omitted keeps the list, ' +
          '[] removes all, an array replaces all.',
        params: ProductParams,
        body: OpsUpdateBody,
        response: { 200: OpsProductWritten },
      },
    },
    async (request) => products.updateOpsProduct(app.db, request.principal, request.params.product_id, request.body),
  );

  app.post<{ Body: Static<typeof BulkProductsBody> }>(
    '/v1/ops/products/bulk',
    {
      // `fos products import` is often the first thing sent to a server just started.
      config: { ...write, compileAtStart: true },
      schema: {
        operationId: 'bulkUpsertOpsProducts',
        tags,
        summary: 'Create or update up to 1,000 products by SKU, with a result per row',
        description:
          'An existing product of the owner team with the SKU is updated with the fields given; an unknown SKU is created ' +
          '(name and type required). One transaction for the request: a failing row is reported (index, problem type and detail) and the rest still apply. ' +
          'With an Idempotency-Key header the request is applied once; a repeat answers what the first answered.',
        body: BulkProductsBody,
        response: { 200: BulkProductsResult },
      },
    },
    async (request, reply) => {
      const answer = await bulkUpsertProducts(app.db, request.principal, request.body, idempotencyKeyOf(request));
      const out = answer.body;
      const body = {
        ...out,
        results: out.results.map((r) => ({
          ...r,
          error: r.error && { type: `urn:fos:error:${r.error.kind}`, status: statusOf(r.error.kind), detail: r.error.detail },
        })),
      };
      return sendAnswer(reply, { ...answer, body });
    },
  );
}
