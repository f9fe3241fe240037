import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('probe', () => {
  it('lists', async () => {
    const doc = (await t.call('GET', '/v1/swagger.json')).json();
    const byTag: Record<string, string[]> = {};
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const [m, op] of Object.entries<any>(item))
        if (['post', 'put', 'patch', 'delete'].includes(m)) (byTag[op.tags?.[0] ?? '-'] ??= []).push(`${m.toUpperCase()} ${path} ${op.operationId}`);
    console.log(JSON.stringify(byTag, null, 1));
    const r = await t.call('POST', '/v1/keys', { body: { name: 'k1', power_role: 'ADMIN' } });
    console.log(r.statusCode, r.body.slice(0, 200));
    const a = await t.call('GET', '/v1/audit-events');
    console.log(a.statusCode, a.body);
  });
});
