import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fixtureWarehouse, fulfillmentFixture } from '../helpers/fixtures.js';
import { person } from '../helpers/oauth.js';
import { transaction } from '../../src/db/tx.js';

// The audit log (issue 42 item 4, docs/audit.md): every write records one event, in the write's
// own transaction, with its actor, address, operation, target and changed fields, and no secret.

let t: TestApp;
let admin: { id: string; token: string };
let merchant: { teamId: string; token: string; delegationId: string };
let warehouseId: string;
let packed: Awaited<ReturnType<typeof fulfillmentFixture>>;
beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  admin = await t.key({ powerRole: 'ADMIN' });
  merchant = await t.merchant();
  warehouseId = await fixtureWarehouse(t);
});
afterAll(() => t.close());

type Res = Awaited<ReturnType<TestApp['call']>>;
const SECRETS = ['hunter2 battery staple', 'shpat_never_stored', 'EZTK_never_stored', 'whsec_never_stored'];

const eventsOf = (trace: string) => t.db.prisma.auditEvent.findMany({ where: { trace_id: trace } });
const traceOf = (res: Res) => String(res.headers['x-trace-id']);

interface Case {
  method: string;
  url: string | (() => Promise<string>);
  body?: unknown | (() => Promise<unknown>);
  token?: () => string;
  target: { type: string; id?: (res: Res) => string | null; key?: string };
  /** The changes expected (with `key`: the target's human key from the response). */
  changes?: (res: Res) => { key: string } & Record<string, unknown>;
}

/** One representative write per route family (OpenAPI tag); the walk below requires one for every family. */
const CASES: Record<string, Case> = {
  Products: {
    method: 'POST',
    url: '/v1/ops/products',
    body: { name: 'Audited', type: 'STANDARD' },
    target: { type: 'product', key: 'Audited' },
  },
  'Merchant products': {
    method: 'POST',
    url: '/v1/merchant/products',
    token: () => merchant.token,
    body: { name: 'Mug', sku: 'AUD-MUG-1', type: 'STANDARD' },
    target: { type: 'product', key: 'AUD-MUG-1' },
  },
  Vendors: {
    method: 'POST',
    url: '/v1/merchant/vendors',
    token: () => merchant.token,
    body: { vendor_name: 'Acme' },
    target: { type: 'vendor' },
  },
  Orders: {
    method: 'PATCH',
    url: async () => `/v1/ops/orders/${(await fulfillmentFixture(t, { warehouseId })).order.id}/priority`,
    body: { priority: 'CRITICAL' },
    target: { type: 'order', id: (res) => res.json().id },
    changes: (res) => ({ priority: { from: 'NORMAL', to: 'CRITICAL' }, key: res.json().order_number }),
  },
  Fulfillment: {
    method: 'POST',
    url: async () => `/v1/ops/fulfillment-orders/${(await fulfillmentFixture(t, { warehouseId })).fo.id}/accept`,
    target: { type: 'fulfillment_order', id: (res) => res.json().id },
  },
  Packing: {
    method: 'POST',
    url: async () =>
      `/v1/ops/fulfillment-orders/${(packed = await fulfillmentFixture(t, { warehouseId, status: 'ACCEPTED', lines: [{ quantity: 1 }] })).fo.id}/pack-scans`,
    body: () => Promise.resolve({ barcode: packed.foLines[0].sku }),
    target: { type: 'fulfillment_order', id: () => packed.fo.id },
  },
  Packages: {
    method: 'PATCH',
    url: async () => {
      const f = await fulfillmentFixture(t, { warehouseId, status: 'ACCEPTED', lines: [{ quantity: 1 }] });
      const fo = `/v1/ops/fulfillment-orders/${f.fo.id}`;
      expect((await t.call('POST', `${fo}/pack-scans`, { body: { barcode: f.foLines[0].sku } })).statusCode).toBe(200);
      const box = await t.call('POST', `${fo}/pack`, { body: { weight: 800, weight_unit: 'G', name: 'Box 1' } });
      expect(box.statusCode, box.body).toBe(201);
      return `/v1/ops/packages/${box.json().id}`;
    },
    body: { name: 'Box 2' },
    target: { type: 'package', key: 'Box 2' },
  },
  Inventory: {
    method: 'POST',
    url: '/v1/ops/inventory/adjustments',
    body: async () => ({
      warehouse_id: warehouseId,
      reason: 'FOUND',
      lines: [{ sku: (await fulfillmentFixture(t, { warehouseId })).products[0].sku, delta: 2 }],
    }),
    target: { type: 'adjustment' },
  },
  Shops: {
    method: 'POST',
    url: '/v1/ops/shops',
    body: () => Promise.resolve({ name: 'Counter sales', shop_type: 'MANUAL', merchant_team_id: merchant.teamId }),
    target: { type: 'shop', key: 'Counter sales' },
  },
  Charges: {
    method: 'PUT',
    url: () => Promise.resolve(`/v1/ops/delegations/${merchant.delegationId}/rate-card`),
    body: { id: 'rc-std', name: 'Standard', currency: 'EUR', receiving: { rate_per_unit: 0.25 } },
    target: { type: 'delegation', id: () => merchant.delegationId },
  },
  Invoices: {
    method: 'POST',
    url: '/v1/ops/invoices',
    body: () => Promise.resolve({ merchant_team_id: merchant.teamId, period_start: '2026-01-01', period_end: '2026-01-31' }),
    target: { type: 'invoice', id: (res) => res.json().id },
  },
  Billing: {
    method: 'POST',
    url: '/v1/ops/billing/storage-runs',
    body: { date: '2026-01-31' },
    target: { type: 'storage_run', id: () => null },
  },
  Warehouses: {
    method: 'PATCH',
    url: () => Promise.resolve(`/v1/ops/warehouses/${warehouseId}`),
    body: { time_zone: 'America/Chicago' },
    target: { type: 'warehouse', id: () => warehouseId },
    changes: () => ({ key: 'Main Warehouse', time_zone: { to: 'America/Chicago' } }),
  },
  'Picking sessions': { method: 'POST', url: '/v1/ops/totes', body: { name: 'Tote A' }, target: { type: 'tote', key: 'Tote A' } },
  Access: {
    method: 'POST',
    url: '/v1/users',
    body: { email: 'audited@example.com', display_name: 'Audrey', password: SECRETS[0] },
    target: { type: 'user', id: (res) => res.json().id },
  },
  Webhooks: {
    method: 'POST',
    url: '/v1/webhooks',
    body: { url: 'https://hooks.example.com/in', events: ['*'] },
    target: { type: 'webhook', id: (res) => res.json().id },
  },
  Carriers: {
    method: 'POST',
    url: '/v1/ops/carrier-integrations',
    body: { name: 'EP', type: 'EASYPOST', api_base_url: 'http://127.0.0.1:9/v2', credentials: { api_key: SECRETS[2] } },
    target: { type: 'carrier_integration', id: (res) => res.json().id, key: 'EP' },
  },
  Locations: {
    method: 'POST',
    url: '/v1/ops/locations',
    body: () => Promise.resolve({ warehouse_id: warehouseId, name: 'AUD-01', type: 'RECEIVING' }),
    target: { type: 'location', key: 'AUD-01' },
  },
};
/** Walked in its own block below: Files' upload is a multipart body, not JSON. */
const NOT_WALKED = ['Files'];

describe('the OpenAPI walk: one event per write, with actor, target and no secret', () => {
  it('has a representative write for every route family', async () => {
    const doc = (await t.call('GET', '/v1/swagger.json')).json();
    const families = new Set<string>();
    for (const item of Object.values<Record<string, { tags?: string[] }>>(doc.paths))
      for (const [m, op] of Object.entries(item)) if (['post', 'put', 'patch', 'delete'].includes(m)) families.add(op.tags?.[0] ?? '');
    expect([...families].filter((f) => !CASES[f] && !NOT_WALKED.includes(f)).sort()).toEqual([]);
  });

  for (const [family, c] of Object.entries(CASES)) {
    it(`${family}: ${c.method} ${typeof c.url === 'string' ? c.url : '(fixture)'}`, async () => {
      const url = typeof c.url === 'string' ? c.url : await c.url();
      const body = typeof c.body === 'function' ? await (c.body as () => Promise<unknown>)() : c.body;
      const token = c.token?.() ?? admin.token;
      const res = await t.call(c.method, url, { token, body, headers: { 'user-agent': 'audit-test/1' } });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const events = await eventsOf(traceOf(res));
      expect(events).toHaveLength(1);
      const e = events[0];
      const me = c.token ? await t.db.prisma.apiKey.findFirst({ where: { team_id: merchant.teamId } }) : { id: admin.id };
      expect(e).toMatchObject({
        actor_type: 'KEY',
        actor_id: me!.id,
        method: c.method,
        user_agent: 'audit-test/1',
        target_type: c.target.type,
      });
      expect(e.ip).toBeTruthy();
      expect(e.action).toMatch(/^[a-z][A-Za-z]+$/);
      expect(e.target_id).toBe(c.target.id ? c.target.id(res) : res.json().id);
      if (c.target.key) expect(e.target_key).toBe(c.target.key);
      if (c.changes) {
        const { key, ...changes } = c.changes(res);
        expect(e.target_key).toBe(key);
        expect(e.changes).toEqual(changes);
      }
      const text = JSON.stringify(e);
      for (const s of SECRETS) expect(text).not.toContain(s);
    });
  }
});

describe('the Files family: upload, rename and delete each record one event', () => {
  /** A multipart/form-data body with one file part. */
  const form = (name: string, bytes: Buffer) => {
    const boundary = `----fosaudit${Date.now().toString(16)}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: text/plain\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  };
  const expectOne = async (res: { statusCode: number; body: string; headers: Record<string, unknown> }, method: string, id: string) => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    const events = await eventsOf(String(res.headers['x-trace-id']));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor_type: 'KEY',
      actor_id: admin.id,
      method,
      target_type: 'file',
      target_id: id,
      user_agent: 'audit-test/1',
    });
    expect(events[0].action).toMatch(/^[a-z][A-Za-z]+$/);
    return events[0];
  };

  it('POST /v1/ops/files, PATCH /v1/ops/files/{id}, DELETE /v1/ops/files/{id}', async () => {
    const headers = { 'x-access-token': admin.token, 'user-agent': 'audit-test/1' };
    const { payload, headers: h } = form('manifest.txt', Buffer.from('pallet 1 of 3\n'));
    const up = await t.app.inject({ method: 'POST', url: '/v1/ops/files', payload, headers: { ...h, ...headers } });
    const id = up.json().id as string;
    await expectOne(up, 'POST', id);

    const renamed = await t.app.inject({ method: 'PATCH', url: `/v1/ops/files/${id}`, payload: { name: 'manifest-2.txt' }, headers });
    await expectOne(renamed, 'PATCH', id);

    const gone = await t.app.inject({ method: 'DELETE', url: `/v1/ops/files/${id}`, headers });
    await expectOne(gone, 'DELETE', id);
  });
});

describe('updates record what each changed field was before (issue 42)', () => {
  /** Creates the record, PATCHes it and returns the PATCH's one audit event. */
  const patched = async (create: { url: string; body: unknown }, url: (id: string) => string, body: unknown) => {
    const made = await t.call('POST', create.url, { token: admin.token, body: create.body });
    expect(made.statusCode, made.body).toBeLessThan(300);
    const id = made.json().id as string;
    const res = await t.call('PATCH', url(id), { token: admin.token, body });
    expect(res.statusCode, res.body).toBe(200);
    const events = await eventsOf(traceOf(res));
    expect(events).toHaveLength(1);
    expect(events[0].target_id).toBe(id);
    return events[0];
  };

  it('a location, a role, a webhook, a carrier integration and a shop: from and to, secrets redacted', async () => {
    const loc = await patched(
      { url: '/v1/ops/locations', body: { warehouse_id: warehouseId, name: 'BEF-01', type: 'RECEIVING' } },
      (id) => `/v1/ops/locations/${id}`,
      { name: 'BEF-02' },
    );
    expect(loc.changes).toEqual({ name: { from: 'BEF-01', to: 'BEF-02' } });

    const role = await patched(
      { url: '/v1/roles', body: { name: 'Packers', permissions: ['READ_FULFILLMENTS'] } },
      (id) => `/v1/roles/${id}`,
      { name: 'Packers (day)' },
    );
    expect(role.changes).toEqual({ name: { from: 'Packers', to: 'Packers (day)' } });

    const hook = await patched(
      { url: '/v1/webhooks', body: { url: 'https://hooks.example.com/before', events: ['*'], description: 'old' } },
      (id) => `/v1/webhooks/${id}`,
      { description: 'new' },
    );
    expect(hook.changes).toEqual({ description: { from: 'old', to: 'new' } });

    const carrier = await patched(
      {
        url: '/v1/ops/carrier-integrations',
        body: { name: 'EP before', type: 'EASYPOST', api_base_url: 'http://127.0.0.1:9/v2', credentials: { api_key: SECRETS[2] } },
      },
      (id) => `/v1/ops/carrier-integrations/${id}`,
      { name: 'EP after', credentials: { api_key: SECRETS[2] } },
    );
    expect(carrier.changes).toMatchObject({ name: { from: 'EP before', to: 'EP after' }, credentials: { to: expect.any(String) } });
    expect(carrier.changes).not.toHaveProperty('credentials.from');
    expect(JSON.stringify(carrier)).not.toContain(SECRETS[2]);

    const shop = await patched(
      { url: '/v1/ops/shops', body: { name: 'Counter before', shop_type: 'MANUAL', merchant_team_id: merchant.teamId } },
      (id) => `/v1/ops/shops/${id}`,
      { name: 'Counter after' },
    );
    expect(shop.changes).toEqual({ name: { from: 'Counter before', to: 'Counter after' } });
  });
});

describe('what is not recorded', () => {
  it('a failed write (4xx) records nothing', async () => {
    const before = await t.db.prisma.auditEvent.count();
    const res = await t.call('POST', '/v1/ops/products', { body: { name: '' } });
    expect(res.statusCode).toBe(400);
    const missing = await t.call('POST', '/v1/ops/orders/00000000-0000-0000-0000-000000000000/cancel', { body: {} });
    expect(missing.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventsOf(traceOf(missing))).toEqual([]);
    expect(await t.db.prisma.auditEvent.count()).toBe(before);
  });

  it('an idempotent replay records nothing more', async () => {
    const sku = (await fulfillmentFixture(t, { warehouseId })).products[0].sku;
    const body = { warehouse_id: warehouseId, reason: 'FOUND', lines: [{ sku, delta: 1 }] };
    const headers = { 'idempotency-key': 'audit-replay-1' };
    const first = await t.call('POST', '/v1/ops/inventory/adjustments', { body, headers });
    const again = await t.call('POST', '/v1/ops/inventory/adjustments', { body, headers });
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await eventsOf(traceOf(first))).toHaveLength(1);
    expect(await eventsOf(traceOf(again))).toEqual([]);
  });

  it('a rolled-back transaction records nothing; a retried one records once', async () => {
    const { newAuditContext, runAudited } = await import('../../src/domain/audit/context.js');
    const ctx = newAuditContext('rollbackProbe', { active: true, traceId: 'rollback-probe', actor: { type: 'CLI', name: 'test' } });
    await expect(
      runAudited(ctx, () =>
        transaction(t.db, async (tx) => {
          await tx.$executeRawUnsafe(`UPDATE "teams" SET "name" = "name" WHERE "id" = '${t.teamId}'`);
          throw new Error('boom');
        }),
      ),
    ).rejects.toThrow('boom');
    expect(await eventsOf('rollback-probe')).toEqual([]);
    let tries = 0;
    const retried = newAuditContext('retryProbe', { active: true, traceId: 'retry-probe', actor: { type: 'CLI', name: 'test' } });
    await runAudited(retried, () =>
      transaction(t.db, async () => {
        if (++tries === 1) throw Object.assign(new Error('busy'), { code: 'P2034' });
        return { id: 'x' };
      }),
    );
    expect(tries).toBe(2);
    expect(await eventsOf('retry-probe')).toHaveLength(1);
  });
});

describe('actors besides keys', () => {
  it('a /floor sign-in is recorded with the person as actor, and its writes with the connection and person', async () => {
    const picker = await person(t.db, t.teamId, ['READ_FULFILLMENTS', 'WRITE_FULFILLMENTS', 'WRITE_ORDERS', 'READ_ORDERS']);
    const res = await t.call('POST', '/floor/session', { token: null, body: { email: picker.email, password: picker.password } });
    expect(res.statusCode, res.body).toBe(201);
    const [signIn] = await eventsOf(traceOf(res));
    expect(signIn).toMatchObject({
      actor_type: 'USER',
      actor_id: picker.id,
      user_id: picker.id,
      team_id: t.teamId,
      target_type: 'mcp_connection',
    });
    const text = JSON.stringify(signIn);
    expect(text).not.toContain(picker.password);
    expect(text).not.toContain(res.json().access_token);
    const f = await fulfillmentFixture(t, { warehouseId });
    const accept = await t.call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/accept`, { token: res.json().access_token });
    expect(accept.statusCode, accept.body).toBe(200);
    const [e] = await eventsOf(traceOf(accept));
    expect(e).toMatchObject({ actor_type: 'CONNECTION', user_id: picker.id, action: 'acceptFulfillmentOrder', target_id: f.fo.id });
  });
});

describe('fos admin and retention', () => {
  it('fos admin key create (spawned) is recorded with the CLI actor, without the token it printed', async () => {
    const { stdout } = await promisify(execFile)(
      'node',
      ['bin/fos.js', 'admin', 'key', 'create', '--team', t.teamId, '--name', 'ops robot', '--db', t.db.url],
      { env: { ...process.env, FOS_LOG_LEVEL: 'warn' } },
    );
    const key = JSON.parse(stdout);
    const [e] = await t.db.prisma.auditEvent.findMany({ where: { action: 'admin.key.create' } });
    expect(e).toMatchObject({ actor_type: 'CLI', team_id: t.teamId, target_type: 'key', target_id: key.id, target_key: 'ops robot' });
    expect(e.actor_name).toMatch(/^fos admin \(/);
    expect(JSON.stringify(e)).not.toContain(key.token);
  });

  it('the outbox worker deletes events past --audit-retention-days', async () => {
    const { createOutboxWorker } = await import('../../src/server/workers/outbox.js');
    const silentLog = { debug() {}, info() {}, warn() {}, error() {} };
    const old = await t.db.prisma.auditEvent.create({
      data: { team_id: t.teamId, actor_type: 'CLI', action: 'old', created_at: new Date(Date.now() - 40 * 86_400_000) },
    });
    const recent = await t.db.prisma.auditEvent.count();
    await createOutboxWorker(t.db, silentLog, { auditRetentionDays: 30 }).runOnce();
    expect(await t.db.prisma.auditEvent.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await t.db.prisma.auditEvent.count()).toBe(recent - 1);
  });
});

describe('GET /v1/audit-events and fos audit', () => {
  it('filters by actor, target, action and time, pages by cursor, and shows one', async () => {
    const made = [];
    for (const name of ['Tote P1', 'Tote P2', 'Tote P3']) made.push(await t.call('POST', '/v1/ops/totes', { body: { name } }));
    const q = { action: 'createTote', limit: 2 };
    const first = (await t.call('GET', '/v1/audit-events', { query: q })).json();
    expect(first.data.map((e: { target: { key: string } }) => e.target.key)).toEqual(['Tote P3', 'Tote P2']);
    const next = (await t.call('GET', '/v1/audit-events', { query: { ...q, cursor: first.meta.next_cursor } })).json();
    expect(next.data[0].target.key).toBe('Tote P1');
    const tote = made[0].json().id;
    const byTarget = (await t.call('GET', '/v1/audit-events', { query: { target_type: 'tote', target_id: tote } })).json();
    expect(byTarget.data).toHaveLength(1);
    const future = (
      await t.call('GET', '/v1/audit-events', { query: { created_at_min: new Date(Date.now() + 60_000).toISOString() } })
    ).json();
    expect(future.data).toEqual([]);
    const mine = (await t.call('GET', '/v1/audit-events', { query: { actor_id: admin.id, limit: 100 } })).json();
    expect(mine.data.length).toBeGreaterThan(0);
    expect(mine.data.every((e: { actor: { id: string } }) => e.actor.id === admin.id)).toBe(true);
    const one = await t.call('GET', `/v1/audit-events/${byTarget.data[0].id}`);
    expect(one.json()).toMatchObject({ action: 'createTote', target: { type: 'tote', id: tote } });
    expect(
      (await t.call('GET', '/v1/audit-events', { token: merchant.token }))
        .json()
        .data.every((e: { action: string }) => e.action !== 'createTote'),
    ).toBe(true);
  });

  it('fos audit list (spawned) prints the events', async () => {
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    const dir = await mkdtemp(path.join(tmpdir(), 'fos-audit-'));
    const env = { ...process.env, HOME: dir, FOS_CONFIG_DIR: dir, FOS_DATA_DIR: dir, FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: admin.token };
    const { stdout } = await promisify(execFile)(
      'node',
      ['bin/fos.js', 'audit', 'list', '--action', 'createTote', '--json', 'action,target'],
      { env },
    );
    const rows = JSON.parse(stdout);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows[0]).toMatchObject({ action: 'createTote', target: { type: 'tote' } });
  });
});
