import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';
import { testApp, type TestApp } from '../helpers/app.js';

// Issue 7 item 11: /v1/swagger.json has servers [{url: "/v1"}] and paths relative to it, so a
// client generated from it (openapi-typescript types + openapi-fetch) reaches /v1/me, not
// /v1/v1/me — checked against a listening server, and the generated types compile against calls.

let t: TestApp;
let origin = '';
let doc: any;
beforeAll(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  doc = await (await fetch(`${origin}/v1/swagger.json`)).json();
});
afterAll(() => t?.close());

describe('a client generated from the OpenAPI document', () => {
  it('publishes servers /v1 and paths relative to it', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/v1' })]);
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/me');
    expect(paths).toContain('/ops/products');
    expect(paths.filter((p) => p.startsWith('/v1/'))).toEqual([]);
  });

  it('openapi-fetch with baseUrl = origin + servers[0].url calls the real operations', async () => {
    const client = createClient<any>({
      baseUrl: new URL(doc.servers[0].url, `${origin}/v1/swagger.json`).href,
      headers: { 'x-access-token': t.adminToken },
    });
    const me = await client.GET('/me');
    expect(me.response.status).toBe(200);
    expect(me.response.url).toBe(`${origin}/v1/me`);
    expect(me.data).toMatchObject({ power_role: 'ADMIN' });
    const products = await client.GET('/ops/products', { params: { query: { limit: 5 } } });
    expect(products.response.status).toBe(200);
    expect(products.data.meta).toMatchObject({ page: 0, page_size: 5 });
    const missing = await client.GET('/ops/products/{product_id}', {
      params: { path: { product_id: '00000000-0000-7000-8000-000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, type: 'urn:fos:error:not-found' });
  });

  it("reaches the spec's draft-order path where the document puts it (issue 35)", async () => {
    expect(Object.keys(doc.paths)).toContain('/api/orders/draft-orders/create-draft-order');
    const merchant = await t.merchant();
    const client = createClient<any>({
      baseUrl: new URL(doc.servers[0].url, `${origin}/v1/swagger.json`).href,
      headers: { 'x-access-token': t.adminToken },
    });
    const product = await client.POST('/ops/products', {
      body: { merchant_team_id: merchant.teamId, name: 'Mug', sku: 'DRAFT-MUG', type: 'STANDARD' },
    });
    expect(product.response.status, JSON.stringify(product.error)).toBe(201);
    const draft = await client.POST('/api/orders/draft-orders/create-draft-order', {
      body: {
        merchant_team_id: merchant.teamId,
        line_items: [{ sku: 'DRAFT-MUG', quantity: 2, price: 12.5 }],
        shipping_address: { name: 'Ada Lovelace', address1: '1 Main St', city: 'Leeds', country: 'GB' },
      },
    });
    expect(draft.response.url).toBe(`${origin}/v1/api/orders/draft-orders/create-draft-order`);
    expect(draft.response.status, JSON.stringify(draft.error)).toBe(201);
    expect(draft.data).toMatchObject({ status: 'OPEN', merchant_team_id: merchant.teamId });
    const row = await t.db.prisma.draftOrder.findUniqueOrThrow({ where: { id: draft.data.id }, include: { line_items: true } });
    expect(row.line_items.map((l) => [l.sku, l.quantity])).toEqual([['DRAFT-MUG', 2]]);
  });

  it('openapi-typescript generates types that type-check typed calls (tsc)', async () => {
    const types = astToString(await openapiTS(doc));
    expect(types).toContain('"/ops/products": {');
    expect(types).not.toContain('"/v1/');
    // Under node_modules so the generated module resolves openapi-fetch like a user's project would.
    const dir = path.join(packageRoot(), 'node_modules', '.cache', 'fos-openapi-client-test');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'api.d.ts'), types);
    writeFileSync(
      path.join(dir, 'use.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './api.js';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:7070/v1' });
export async function run() {
  const me = await client.GET('/me');
  const list = await client.GET('/ops/orders/list', { params: { query: { limit: 10, status: 'OPEN' } } });
  const n: number | undefined = list.data?.meta.page_size;
  return [me.data?.key_id, n];
}
// @ts-expect-error the old doubled path does not exist
void client.GET('/v1/me');
`,
    );
    const tsc = path.join(packageRoot(), 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        path.join(dir, 'use.ts'),
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 180_000);
});
