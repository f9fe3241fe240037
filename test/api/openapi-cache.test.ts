import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

// Issue 7 item 7 (document part): swagger.json is built once and served from a cached buffer
// with an ETag, so a flood of document requests does not rebuild 0.5 MB of JSON each time.
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

describe('GET /v1/swagger.json caching', () => {
  it('is built once, carries an ETag and answers 304 to If-None-Match', async () => {
    let builds = 0;
    const original = t.app.swagger.bind(t.app);
    (t.app as unknown as { swagger: () => unknown }).swagger = () => {
      builds++;
      return original();
    };
    const first = await t.call('GET', '/v1/swagger.json', { token: null });
    const second = await t.call('GET', '/v1/swagger.json', { token: null });
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(builds).toBeLessThanOrEqual(1);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(JSON.parse(first.body).openapi).toMatch(/^3\./);
    const cached = await t.call('GET', '/v1/swagger.json', { token: null, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
  });
});
