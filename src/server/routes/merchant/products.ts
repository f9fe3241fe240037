import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { merchant as products } from '../../../domain/products/index.js';
import { listOf } from '../../../contract/common.js';
import {
  MerchantCreateBody,
  MerchantProduct,
  MerchantProductQuery,
  MerchantUpdateBody,
  ProductParams,
} from '../../../contract/products.js';

// Products, merchant family (spec 4.3, records 2.4): merchant keys; their team's products.

const tags = ['Merchant products'];
const read = { permission: 'READ_PRODUCTS', family: 'merchant' } as const;
const write = { permission: 'WRITE_PRODUCTS', family: 'merchant' } as const;
type Params = { Params: Static<typeof ProductParams> };

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof MerchantProductQuery> }>(
    '/v1/merchant/products',
    {
      config: read,
      schema: {
        operationId: 'listMerchantProducts',
        tags,
        summary: "List the merchant team's products",
        description: 'page is 0-based. Newest first by default (order_by created_at, order desc).',
        querystring: MerchantProductQuery,
        response: { 200: listOf(MerchantProduct) },
      },
    },
    async (request) => products.listMerchantProducts(app.db, request.principal, request.query),
  );

  app.post<{ Body: Static<typeof MerchantCreateBody> }>(
    '/v1/merchant/products',
    {
      config: write,
      schema: {
        operationId: 'createMerchantProduct',
        tags,
        summary: 'Create a product',
        description: "name and type are required. Units default to the team's measurement system.",
        body: MerchantCreateBody,
        response: { 201: MerchantProduct },
      },
    },
    async (request, reply) => {
      const product = await products.createMerchantProduct(app.db, request.principal, request.body);
      return reply.code(201).send(product);
    },
  );

  app.get<Params>(
    '/v1/merchant/products/:product_id',
    {
      config: read,
      schema: {
        operationId: 'getMerchantProduct',
        tags,
        summary: 'Get a product',
        params: ProductParams,
        response: { 200: MerchantProduct },
      },
    },
    async (request) => products.getMerchantProduct(app.db, request.principal, request.params.product_id),
  );

  app.patch<Params & { Body: Static<typeof MerchantUpdateBody> }>(
    '/v1/merchant/products/:product_id',
    {
      config: write,
      schema: {
        operationId: 'updateMerchantProduct',
        tags,
        summary: 'Update a product (partial)',
        description:
          'Only the fields sent change. bundle_components / assembly_components: omitted keeps the list, ' +
          '[] removes all, an array replaces all.',
        params: ProductParams,
        body: MerchantUpdateBody,
        response: { 200: MerchantProduct },
      },
    },
    async (request) => products.updateMerchantProduct(app.db, request.principal, request.params.product_id, request.body),
  );
}
