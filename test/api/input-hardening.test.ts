// Regression tests for issue 7 items 1, 2, 4 and 12: inputs that used to answer 500 (or a raw
// Node error) are refused as problem+json 4xx with a trace id, and nothing unreadable is stored.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  expect(res.headers['x-trace-id']).toMatch(/^[0-9a-f]{16}$/);
  expect(res.json().trace_id).toBe(res.headers['x-trace-id']);
  return res.json();
}

const rate = { carrier_id: 'c', carrier_name: 'C', service_id: 's', service_name: 'S', amount: 5 };

describe('item 1: bounds the columns can hold', () => {
  it('refuses an over-long path id with a 400 problem and trace id', async () => {
    expectProblem(await t.call('GET', `/v1/ops/products/${'x'.repeat(5000)}`), 400);
    expectProblem(await t.call('GET', `/v1/ops/files/${'x'.repeat(300)}`), 400);
  });
  it('refuses numbers beyond what the column can compare with', async () => {
    for (const v of ['1e308', '9999999999999999999999']) {
      const body = expectProblem(await t.call('GET', `/v1/ops/files?min_size=${v}`), 400);
      expect(body.errors[0].path).toBe('query.min_size');
    }
  });
  it('refuses a file size beyond a 64-bit exact integer', async () => {
    const body = expectProblem(
      await t.call('POST', '/v1/ops/files', {
        body: { name: 'a', url: 'https://x.example/y', mimetype: 'a/b', size: 9223372036854775807 },
      }),
      400,
    );
    expect(body.errors[0].path).toBe('body.size');
  });
  it('refuses lone surrogates in text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/carrier-rates',
      headers: { 'x-access-token': t.adminToken, 'content-type': 'application/json' },
      payload: `{"carrier_id":"c","carrier_name":"C","service_id":"\\ud800","service_name":"S","amount":1}`,
    });
    const body = expectProblem(res as never, 400);
    expect(body.errors[0].path).toBe('body.service_id');
    expect(body.errors[0].message).toMatch(/lone surrogates/);
  });
  it('publishes the bounds in the OpenAPI document', async () => {
    const doc = (await t.call('GET', '/v1/swagger.json')).json();
    const files = doc.paths[Object.keys(doc.paths).find((p) => p.endsWith('/ops/files'))!];
    const minSize = files.get.parameters.find((p: any) => p.name === 'min_size');
    expect(minSize.schema.maximum).toBe(1e15);
    const search = files.get.parameters.find((p: any) => p.name === 'mimetype');
    expect(search.schema.maxLength).toBeGreaterThan(0);
  });
});

describe('item 2: carrier rates', () => {
  it('refuses estimated_days a 32-bit column cannot hold, stores nothing, rate table stays readable', async () => {
    const body = expectProblem(
      await t.call('POST', '/v1/ops/carrier-rates', {
        body: { ...rate, estimated_days: 9007199254740992 },
      }),
      400,
    );
    expect(body.errors[0].path).toBe('body.estimated_days');
    expect(await t.db.prisma.carrierRate.count({ where: { team_id: t.teamId } })).toBe(0);
    expect((await t.call('GET', '/v1/ops/carrier-rates')).statusCode).toBe(200);
    const ok = await t.call('POST', '/v1/ops/carrier-rates', { body: { ...rate, estimated_days: 2147483647 } });
    expect(ok.statusCode).toBe(201);
    const list = await t.call('GET', '/v1/ops/carrier-rates');
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0].estimated_days).toBe(2147483647);
  });
});

describe('item 4: every response is problem+json with a trace id', () => {
  it('answers text/plain bodies with 415', async () => {
    const res = await t.call('POST', '/v1/ops/files', { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(expectProblem(res as never, 415).type).toBe('urn:fos:error:unsupported-media-type');
  });
  it('answers malformed percent-encoding and unknown routes as problems', async () => {
    expectProblem(await t.call('GET', '/v1/ops/%ZZ'), 400);
    expectProblem(await t.call('DELETE', '/v1/me'), 404);
    expectProblem(await t.call('POST', '/v1/ops/files', { body: '{bad', headers: { 'content-type': 'application/json' } }), 400);
  });
  it('answers requests the HTTP parser refuses as problem+json with a trace id', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // A GET with a body and no length header: the body is parsed as the next request.
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => {
        out += d.toString();
      });
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
      socket.write('GET /v1/me HTTP/1.1\r\nHost: x\r\n\r\n{"a":1}\r\n\r\n');
    });
    const responses = raw.split(/(?=HTTP\/1\.1 )/);
    const last = responses[responses.length - 1];
    expect(last).toMatch(/^HTTP\/1\.1 400/);
    expect(last).toMatch(/content-type: application\/problem\+json/i);
    expect(last).toMatch(/x-trace-id: [0-9a-f]{16}/i);
    expect(JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4)).type).toBe('urn:fos:error:validation-failed');
  });
});

describe('item 12: page/limit are whole numbers, order ids are UUIDs', () => {
  it('accepts 2.0 and refuses 2.5 naming the rule', async () => {
    const ok = await t.call('GET', '/v1/ops/orders?page=2.0&limit=5.0');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().meta.page).toBe(2);
    const body = expectProblem(await t.call('GET', '/v1/ops/orders?page=2.5'), 400);
    expect(body.errors).toEqual([{ path: 'query.page', message: expect.stringMatching(/whole number/) }]);
    expectProblem(await t.call('GET', '/v1/ops/files?limit=1.5'), 400);
  });
  it('refuses non-UUID order ids and fulfillment order ids with 400', async () => {
    for (const url of [
      '/v1/ops/orders/abc',
      '/v1/ops/fulfillment-orders/abc',
      '/v1/ops/fulfillment-orders?order_id=abc',
      '/v1/ops/packages?fulfillment_order_id=abc',
    ]) {
      const body = expectProblem(await t.call('GET', url), 400);
      expect(body.errors[0].message).toMatch(/uuid/);
    }
  });
});
