import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { PERMISSIONS } from '../../src/contract/permissions.js';

// GET /v1/swagger.json is the one machine-readable description of the API (spec §9): a valid
// OpenAPI 3.1 document in which every operation is identified, tagged, states the permission
// it needs (or that it is public) and documents its problem+json errors.

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await testApp();
  const res = await t.call('GET', '/v1/swagger.json', { token: null });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(() => t?.close());

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(): Array<{ path: string; method: string; op: any }> {
  return Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op })),
  );
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

describe('GET /v1/swagger.json', () => {
  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9_.-]+$/);
      expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    }
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('identifies, tags and guards every operation and documents its problem+json errors', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThanOrEqual(13);
    const ids = ops.map(({ op }) => op.operationId);
    expect(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id)),
      JSON.stringify(ids),
    ).toBe(true);
    expect(new Set(ids).size, 'operationIds are unique').toBe(ids.length);
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      // Published relative to servers[0] = /v1 (the spec's base_url), so clients do not double it.
      expect(path, where).toMatch(/^\/(?!v1\/)[a-z]/);
      expect(op.tags?.length, `${where} has a tag`).toBeGreaterThan(0);
      expect(typeof op.summary === 'string' && op.summary.length > 0, `${where} has a summary`).toBe(true);
      if (op['x-public'] === true) {
        expect(op.security, `${where} is public`).toEqual([]);
      } else {
        expect('x-permission' in op, `${where} states x-permission`).toBe(true);
        const perm = op['x-permission'];
        expect(perm === null || PERMISSIONS.includes(perm), `${where}: ${perm}`).toBe(true);
        for (const status of ['401', '403', '429']) expect(op.responses[status], `${where} ${status}`).toBeDefined();
      }
      const fourXX = Object.keys(op.responses).filter((s) => /^4\d\d$/.test(s));
      expect(fourXX.length, `${where} documents 4xx`).toBeGreaterThanOrEqual(2);
      for (const status of [...fourXX, '500']) {
        const content = op.responses[status]?.content;
        expect(Object.keys(content ?? {}), `${where} ${status}`).toEqual(['application/problem+json']);
        expect(content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
      }
      const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      expect(success.length, `${where} documents its success`).toBeGreaterThanOrEqual(1);
      for (const s of success.filter((code) => code !== '204')) {
        expect(Object.values(op.responses[s].content ?? {})[0], `${where} ${s} has a schema`).toHaveProperty('schema');
      }
    }
    expect(doc.components.securitySchemes.accessToken).toEqual({ type: 'apiKey', in: 'header', name: 'x-access-token' });
    expect(doc.security).toEqual([{ accessToken: [] }]);
  });

  it('describes the key and role operations', () => {
    const expected: Record<string, [string, string, string]> = {
      createApiKey: ['post', '/v1/keys', '201'],
      listApiKeys: ['get', '/v1/keys', '200'],
      getApiKey: ['get', '/v1/keys/{key_id}', '200'],
      disableApiKey: ['post', '/v1/keys/{key_id}/disable', '200'],
      deleteApiKey: ['delete', '/v1/keys/{key_id}', '204'],
      setApiKeyRoles: ['put', '/v1/keys/{key_id}/roles', '200'],
      setApiKeyTier: ['put', '/v1/keys/{key_id}/tier', '200'],
      createRole: ['post', '/v1/roles', '201'],
      listRoles: ['get', '/v1/roles', '200'],
      getRole: ['get', '/v1/roles/{role_id}', '200'],
      updateRole: ['patch', '/v1/roles/{role_id}', '200'],
      deleteRole: ['delete', '/v1/roles/{role_id}', '204'],
    };
    for (const [id, [method, path, status]] of Object.entries(expected)) {
      const op = doc.paths[path.replace(/^\/v1(?=\/)/, '')]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op).toMatchObject({ operationId: id, tags: ['Access'], 'x-permission': 'MANAGE_API_KEYS' });
      expect(op.responses[status], `${id} ${status}`).toBeDefined();
      if (path.includes('{')) {
        expect(op.responses['404']).toBeDefined();
        expect(op.parameters.some((p: any) => p.in === 'path' && p.required)).toBe(true);
      }
      if (['post', 'put', 'patch'].includes(method) && !path.endsWith('/disable')) {
        const body = op.requestBody.content['application/json'].schema;
        expect(body.additionalProperties, `${id} rejects unknown fields`).toBe(false);
      }
    }
    const created = doc.paths['/keys'].post.responses['201'].content['application/json'].schema;
    expect(created.properties.token).toBeDefined();
    const key = doc.paths['/keys/{key_id}'].get.responses['200'].content['application/json'].schema;
    expect(key.properties.token).toBeUndefined();
    expect(key.properties.token_hash).toBeUndefined();
    expect(key.properties.token_hint).toBeDefined();
    const list = doc.paths['/keys'].get;
    expect(list.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'id_prefix', 'limit', 'page']);
    const perms = doc.paths['/roles'].post.requestBody.content['application/json'].schema.properties.permissions;
    expect(perms.items.enum).toEqual([...PERMISSIONS]);
  });

  it('describes the channel webhook of every platform that sends one, with the topics fos subscribes to', () => {
    const op = doc.paths['/channels/{shop_id}/webhooks'].post;
    expect(op.summary).toMatch(/Shopify, WooCommerce or BigCommerce/);
    for (const header of ['X-Shopify-Hmac-Sha256', 'X-WC-Webhook-Signature', 'X-Fos-Webhook-Secret'])
      expect(op.description).toContain(header);
    for (const topic of ['orders/create', 'order.deleted', 'store/order/created', 'store/order/archived'])
      expect(op.description).toContain(topic);
    expect(op.description).toMatch(/Amazon, eBay and Etsy send fos no webhooks/);
  });

  it('matches real responses: problems and a page of keys validate against their documented schemas', async () => {
    const ajv = new Ajv({ strict: false });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    const problem = ajv.compile({ $ref: '#/components/schemas/Problem' });
    for (const res of [await t.call('GET', '/v1/keys/none'), await t.call('POST', '/v1/roles', { body: {} })]) {
      expect(problem(res.json()), JSON.stringify(problem.errors)).toBe(true);
    }
    const listSchema = doc.paths['/keys'].get.responses['200'].content['application/json'].schema;
    const list = ajv.compile(listSchema);
    const body = (await t.call('GET', '/v1/keys')).json();
    expect(list(body), JSON.stringify(list.errors)).toBe(true);
    expect(body.data.length).toBeGreaterThan(0);
  });
});

describe('query parameters with defaults', () => {
  it('are documented as optional (validation fills them in)', async () => {
    const t2 = await testApp();
    try {
      const doc = (await t2.call('GET', '/v1/swagger.json', { token: null })).json();
      const params = doc.paths['/ops/products'].get.parameters as { name: string; required?: boolean }[];
      expect(params.find((p) => p.name === 'page')?.required).not.toBe(true);
      expect(params.find((p) => p.name === 'limit')?.required).not.toBe(true);
      const res = await t2.call('GET', '/v1/ops/products');
      expect(res.json().meta).toMatchObject({ page: 0, page_size: 20 });
    } finally {
      await t2.close();
    }
  });
});
