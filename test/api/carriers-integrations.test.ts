import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { shippoDouble, type ShippoDouble } from '../helpers/shippo-double.js';

// Carrier integrations (docs/carriers.md): create/list/get/update/disable/disconnect/test, the
// credentials sealed and never returned, api_base_url under the outbound network policy, and
// one real call to each platform's test double that names a bad key.

let t: TestApp;
let ep: EasyPostDouble;
let sh: ShippoDouble;
beforeAll(async () => {
  [t, ep, sh] = await Promise.all([testApp({ allowPrivateWebhooks: true }), easypostDouble(), shippoDouble()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close(), sh?.close()]);
});

const call = (method: string, url: string, body?: unknown) => t.call(method, url, body !== undefined ? { body } : {});

describe('carrier integrations', () => {
  it('lists the built-in rate table (a test carrier) while a team has no integration', async () => {
    const res = await call('GET', '/v1/ops/carrier-integrations');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([expect.objectContaining({ id: 'table', type: 'TABLE', is_test: true, built_in: true })]);
  });

  it('connects EasyPost with sealed credentials that are never returned, and tests the key', async () => {
    const res = await call('POST', '/v1/ops/carrier-integrations', {
      name: 'EasyPost test',
      type: 'EASYPOST',
      api_base_url: `${ep.url}/v2`,
      credentials: { api_key: ep.apiKey, webhook_secret: 'whsec-ep' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ci = res.json();
    expect(ci).toMatchObject({
      type: 'EASYPOST',
      is_test: true,
      has_credentials: true,
      has_webhook_secret: true,
      enabled: true,
      webhook_path: `/v1/carriers/${ci.id}/webhooks`,
    });
    expect(res.body).not.toContain(ep.apiKey);
    expect(res.body).not.toContain('whsec-ep');
    const row = await t.db.prisma.carrierIntegration.findUniqueOrThrow({ where: { id: ci.id } });
    expect(row.credentials_sealed).toMatch(/^v1\./);
    expect(row.credentials_sealed).not.toContain(ep.apiKey);
    for (const path of ['/v1/ops/carrier-integrations', `/v1/ops/carrier-integrations/${ci.id}`]) {
      const r = await call('GET', path);
      expect(r.statusCode).toBe(200);
      expect(r.body).not.toContain(ep.apiKey);
    }

    const ok = await call('POST', `/v1/ops/carrier-integrations/${ci.id}/test`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, is_test: true });
    const sent = ep.calls(/^\/v2\/addresses$/, 'GET').at(-1)!;
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`${ep.apiKey}:`).toString('base64')}`);

    const bad = await call('PATCH', `/v1/ops/carrier-integrations/${ci.id}`, { credentials: { api_key: 'EZTK_wrong' } });
    expect(bad.statusCode, bad.body).toBe(200);
    expect(bad.json().has_webhook_secret).toBe(false);
    const refused = await call('POST', `/v1/ops/carrier-integrations/${ci.id}/test`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('EasyPost refused the API key (HTTP 401)');
    expect(refused.body).not.toContain('EZTK_wrong');

    const off = await call('POST', `/v1/ops/carrier-integrations/${ci.id}/disable`);
    expect(off.json()).toMatchObject({ enabled: false, has_credentials: true });
    const gone = await call('DELETE', `/v1/ops/carrier-integrations/${ci.id}`);
    expect(gone.json()).toMatchObject({ enabled: false, has_credentials: false });
    expect((await t.db.prisma.carrierIntegration.findUniqueOrThrow({ where: { id: ci.id } })).credentials_sealed).toBeNull();
    expect((await call('POST', `/v1/ops/carrier-integrations/${ci.id}/test`)).statusCode).toBe(409);
  });

  it('connects Shippo and tests the key with its ShippoToken header', async () => {
    const res = await call('POST', '/v1/ops/carrier-integrations', {
      name: 'Shippo',
      type: 'SHIPPO',
      api_base_url: sh.url,
      credentials: { api_key: sh.apiKey },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ok = await call('POST', `/v1/ops/carrier-integrations/${res.json().id}/test`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(sh.calls(/^\/addresses$/).at(-1)!.headers.authorization).toBe(`ShippoToken ${sh.apiKey}`);
  });

  it('refuses bad input: no credentials, credentials on TABLE, unknown fields, unknown warehouses', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'x', type: 'EASYPOST' }, 'body.credentials'],
      [{ name: 'x', type: 'TABLE', credentials: { api_key: 'k' } }, 'body.credentials'],
      [{ name: 'x', type: 'SHIPPO', credentials: { api_key: 'k' }, extra: 1 }, 'extra'],
      [{ name: 'x', type: 'UPS', credentials: { api_key: 'k' } }, 'type'],
      [{ name: 'x', type: 'SHIPPO', credentials: { api_key: 'k' }, warehouse_ids: ['nope'] }, 'body.warehouse_ids'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', '/v1/ops/carrier-integrations', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(path);
    }
    expect((await call('GET', '/v1/ops/carrier-integrations/nope')).statusCode).toBe(404);
  });

  it('refuses a loopback api_base_url unless the server allows private networks', async () => {
    const strict = await testApp();
    try {
      const res = await strict.call('POST', '/v1/ops/carrier-integrations', {
        body: { name: 'Local', type: 'EASYPOST', api_base_url: `${ep.url}/v2`, credentials: { api_key: ep.apiKey } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toContain('--allow-private-webhooks');
      const real = await strict.call('POST', '/v1/ops/carrier-integrations', {
        body: { name: 'Real', type: 'SHIPPO', credentials: { api_key: 'shippo_live_x' } },
      });
      expect(real.statusCode, real.body).toBe(201);
      expect(real.json()).toMatchObject({ api_base_url: 'https://api.goshippo.com', is_test: false });
    } finally {
      await strict.close();
    }
  });
});
