import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';

// Endpoint management through HTTP. Delivery, signatures and retries: webhooks-delivery.test.ts.

const FIELDS = ['id', 'url', 'description', 'events', 'active', 'test', 'created_at', 'updated_at'].sort();

let t: TestApp;
let token: string;
let otherToken: string;

beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  token = (await t.key({ tier: 4 })).token;
  const otherTeam = await teams.createTeam(t.db, { name: 'Other DC', kind: 'FULFILLER' });
  otherToken = (await t.key({ teamId: otherTeam.id, tier: 4 })).token;
});
afterAll(() => t?.close());

describe('/v1/webhooks', () => {
  let id: string;
  let secret: string;

  it('creates an endpoint and shows the signing secret once', async () => {
    const res = await t.call('POST', '/v1/webhooks', {
      token,
      body: { url: 'https://hooks.example.com/fos', events: ['package.fulfilled', 'charge.created'], description: 'ERP' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...FIELDS, 'secret'].sort());
    expect(body).toMatchObject({
      url: 'https://hooks.example.com/fos',
      events: ['package.fulfilled', 'charge.created'],
      description: 'ERP',
      active: true,
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    ({ id, secret } = body);
    expect((await t.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } })).secret).toBe(secret);
  });

  it('never shows the secret in list, get or patch', async () => {
    const list = await t.call('GET', '/v1/webhooks', { token });
    const one = await t.call('GET', `/v1/webhooks/${id}`, { token });
    const patched = await t.call('PATCH', `/v1/webhooks/${id}`, { token, body: { description: 'ERP prod' } });
    for (const res of [list, one, patched]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain('secret');
    }
    expect(Object.keys(one.json()).sort()).toEqual(FIELDS);
    expect(list.json().data.map((w: { id: string }) => w.id)).toEqual([id]);
    expect(list.json().meta).toMatchObject({ page: 0, page_size: 20, start_index: 1, end_index: 1 });
  });

  it('patches url, events and active', async () => {
    const res = await t.call('PATCH', `/v1/webhooks/${id}`, {
      token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['*'], active: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['*'], active: false, description: 'ERP prod' });
    const row = await t.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ active: false, events: ['*'], secret });
  });

  it('validates bodies', async () => {
    const bad = [
      { url: 'ftp://x.example.com', events: ['*'] },
      { url: 'not a url', events: ['*'] },
      { url: 'https://user:pw@x.example.com', events: ['*'] },
      { url: 'https://x.example.com', events: ['order.exploded'] },
      { url: 'https://x.example.com', events: ['*', 'charge.created'] },
      { url: 'https://x.example.com', events: [] },
      { url: 'https://x.example.com', events: ['charge.created', 'charge.created'] },
      { url: 'https://x.example.com', events: ['*'], secret: 'mine' },
    ];
    for (const body of bad) {
      const res = await t.call('POST', '/v1/webhooks', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('urn:fos:error:validation-failed');
    }
    expect((await t.call('PATCH', `/v1/webhooks/${id}`, { token, body: {} })).statusCode).toBe(400);
    expect((await t.call('PATCH', `/v1/webhooks/${id}`, { token, body: { events: ['nope'] } })).statusCode).toBe(400);
  });

  it('lists deliveries (empty) and answers 404 for other teams', async () => {
    const res = await t.call('GET', `/v1/webhooks/${id}/deliveries`, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [],
      meta: { page: 0, page_size: 20, start_index: 0, end_index: 0, has_next_page: false, next_cursor: null, has_previous_page: false },
    });
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${id}`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['DELETE', `/v1/webhooks/${id}`],
    ]) {
      expect((await t.call(method!, path!, { token: otherToken })).statusCode).toBe(404);
    }
    expect((await t.call('PATCH', `/v1/webhooks/${id}`, { token: otherToken, body: { active: true } })).statusCode).toBe(404);
    expect((await t.call('GET', '/v1/webhooks', { token: otherToken })).json().data).toHaveLength(0);
  });

  it('deletes an endpoint', async () => {
    const res = await t.call('DELETE', `/v1/webhooks/${id}`, { token });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.call('GET', `/v1/webhooks/${id}`, { token })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/v1/webhooks/${id}`, { token })).statusCode).toBe(404);
    expect(await t.db.prisma.webhookEndpoint.count({ where: { id } })).toBe(0);
  });

  it('serves merchant keys too, and needs MANAGE_WEBHOOKS', async () => {
    const m = await t.merchant();
    const created = await t.call('POST', '/v1/webhooks', { token: m.token, body: { url: 'https://m.example.com/h', events: ['*'] } });
    expect(created.statusCode).toBe(201);
    expect((await t.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.json().id } })).team_id).toBe(m.teamId);
    expect((await t.call('GET', '/v1/webhooks', { token })).json().data).toHaveLength(0);

    const noPerm = await t.key({ permissions: ['READ_ORDERS', 'READ_CHARGES'] });
    const res = await t.call('GET', '/v1/webhooks', { token: noPerm.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('urn:fos:error:forbidden');
    expect(
      (await t.call('POST', '/v1/webhooks', { token: noPerm.token, body: { url: 'https://x.example.com', events: ['*'] } })).statusCode,
    ).toBe(403);
    const manager = await t.key({ permissions: ['MANAGE_WEBHOOKS'] });
    expect((await t.call('GET', '/v1/webhooks', { token: manager.token })).statusCode).toBe(200);
  });
});

describe('OpenAPI description of this area', () => {
  it('documents every charges, files, picking and webhooks operation with its permission and one success', async () => {
    const doc = (await t.call('GET', '/v1/swagger.json', { token: null })).json();
    const expected: Record<string, [string, string, string, string | null]> = {
      listCharges: ['get', '/v1/ops/charges', '200', 'READ_CHARGES'],
      getCharge: ['get', '/v1/ops/charges/{charge_id}', '200', 'READ_CHARGES'],
      createStorageCharge: ['post', '/v1/ops/charges/storage', '201', 'WRITE_CHARGES'],
      createReceivingCharge: ['post', '/v1/ops/charges/receiving', '201', 'WRITE_CHARGES'],
      updateReceivingCharge: ['patch', '/v1/ops/charges/receiving/{charge_id}', '200', 'WRITE_CHARGES'],
      listFiles: ['get', '/v1/ops/files', '200', 'READ_FILES'],
      createFile: ['post', '/v1/ops/files', '201', 'WRITE_FILES'],
      getFile: ['get', '/v1/ops/files/{file_id}', '200', 'READ_FILES'],
      updateFile: ['patch', '/v1/ops/files/{file_id}', '200', 'WRITE_FILES'],
      listPickingSessionFulfillmentOrders: [
        'get',
        '/v1/ops/v1/picking-sessions/{picking_session_id}/fulfillment-orders',
        '200',
        'READ_FULFILLMENTS',
      ],
      listPickingSessions: ['get', '/v1/ops/picking-sessions', '200', 'READ_FULFILLMENTS'],
      createPickingSession: ['post', '/v1/ops/picking-sessions', '201', 'WRITE_FULFILLMENTS'],
      getPickingSession: ['get', '/v1/ops/picking-sessions/{picking_session_id}', '200', 'READ_FULFILLMENTS'],
      assignPickingSessionFulfillmentOrders: [
        'post',
        '/v1/ops/picking-sessions/{picking_session_id}/fulfillment-orders',
        '200',
        'WRITE_FULFILLMENTS',
      ],
      listTotes: ['get', '/v1/ops/totes', '200', 'READ_FULFILLMENTS'],
      createTote: ['post', '/v1/ops/totes', '201', 'WRITE_FULFILLMENTS'],
      listWebhooks: ['get', '/v1/webhooks', '200', 'MANAGE_WEBHOOKS'],
      createWebhook: ['post', '/v1/webhooks', '201', 'MANAGE_WEBHOOKS'],
      getWebhook: ['get', '/v1/webhooks/{webhook_id}', '200', 'MANAGE_WEBHOOKS'],
      updateWebhook: ['patch', '/v1/webhooks/{webhook_id}', '200', 'MANAGE_WEBHOOKS'],
      deleteWebhook: ['delete', '/v1/webhooks/{webhook_id}', '204', 'MANAGE_WEBHOOKS'],
      listWebhookDeliveries: ['get', '/v1/webhooks/{webhook_id}/deliveries', '200', 'MANAGE_WEBHOOKS'],
    };
    for (const [id, [method, path, status, permission]] of Object.entries(expected)) {
      const op = doc.paths[path.replace(/^\/v1(?=\/)/, '')]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op).toMatchObject({ operationId: id, 'x-permission': permission });
      expect(op.tags.length).toBe(1);
      expect(
        Object.keys(op.responses).filter((s: string) => /^2\d\d$/.test(s)),
        id,
      ).toEqual([status]);
      if (status !== '204') expect(op.responses[status].content['application/json'].schema, id).toBeDefined();
      for (const s of ['400', '401', '403', '429', '500']) expect(op.responses[s], `${id} ${s}`).toBeDefined();
    }
    const picking = doc.paths['/ops/v1/picking-sessions/{picking_session_id}/fulfillment-orders'].get;
    const limit = picking.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 50, default: 10 });
  });
});
