import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { TEST_PG_URL } from '../helpers/db.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { createOutboxWorker, startOutboxWorker } from '../../src/server/workers/outbox.js';
import { transaction } from '../../src/db/tx.js';
import { enqueueEvent } from '../../src/domain/events/outbox.js';
import { packageRoot } from '../../src/db/migrate.js';

// Issue 42 items 1-2: GET /healthz, GET /readyz and GET /metrics through HTTP, on SQLite and
// PostgreSQL. One app with a metrics token and a running outbox worker serves the file; the
// last tests take its outbox worker and then its database away.

const TOKEN = 'metrics-token-0123456789abcdef';
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0); // a fixed clock: no rate-limit window ends mid-test
let t: TestApp;
let worker: ReturnType<typeof startOutboxWorker>;
let hook: Server;
let hookUrl: string;

beforeAll(async () => {
  t = await testApp({ metricsToken: TOKEN, allowPrivateWebhooks: true, unauthRateLimit: 3, clock: () => NOW });
  // The outbox worker fos serve starts (readiness checks it); idle for the file's length.
  worker = startOutboxWorker(t.db, silent, { intervalMs: 3_600_000 });
  t.app.outboxWorker = worker;
  // Its first pass (at once) is over before any test writes: the passes below are the tests' own.
  await vi.waitFor(() => expect(worker.liveness().passes).toBe(1), { timeout: 20_000 });
  // A webhook receiver that always fails (503): deliveries to it count as failures.
  hook = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;
});
afterAll(async () => {
  await worker?.stop();
  hook?.close();
  await t?.close();
});

const scrape = async (token: string | null = TOKEN) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The value of one series of the exposition text (labels in the order prom-client writes them). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /healthz', () => {
  it('answers without a key, database or rate limit, even from an address over its limit of failed authentications', async () => {
    for (let i = 0; i < 4; i++) await t.call('GET', '/v1/me', { token: 'fos_bogus' });
    expect((await t.call('GET', '/v1/me', { token: 'fos_bogus' })).statusCode).toBe(429);
    for (let i = 0; i < 20; i++) {
      const res = await t.call('GET', '/healthz', { token: null });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect((await t.call('GET', '/readyz', { token: null })).statusCode).toBe(200);
  });
});

describe('GET /readyz', () => {
  it('is ready when the database answers, migrations are current and the outbox worker runs', async () => {
    const res = await t.call('GET', '/readyz', { token: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', outbox: 'ok', disk: 'ok' } });
  });

  it('names a migration the database lacks, and is ready again once it is applied', async () => {
    const [last] = await t.db.prisma.$queryRawUnsafe<Array<{ migration_name: string }>>(
      'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1',
    );
    const name = last!.migration_name;
    await t.db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET rolled_back_at = finished_at WHERE migration_name = '${name}'`);
    const res = await t.call('GET', '/readyz', { token: null });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      type: 'urn:fos:error:unavailable',
      checks: { database: 'ok', migrations: `1 not applied (first: ${name}); run fos db migrate or restart fos serve` },
    });
    await t.db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE migration_name = '${name}'`);
    expect((await t.call('GET', '/readyz', { token: null })).statusCode).toBe(200);
  });
});

describe('GET /metrics', () => {
  it('refuses a scraper without the token (401), and a server without a token has no /metrics (404)', async () => {
    for (const token of [null, 'wrong-token-0123456789abcdef']) {
      const res = await scrape(token);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="fos metrics"');
      expect(res.body).not.toContain('fos_http');
    }
    // A floor of free disk no disk has (SQLite only: PostgreSQL's disk is the database server's).
    const plain = await testApp({ minFreeDiskBytes: Number.MAX_SAFE_INTEGER });
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(
        404,
      );
      // Its readiness: no outbox worker was started with it, and (SQLite) the disk is below the floor.
      const ready = await plain.call('GET', '/readyz', { token: null });
      expect(ready.statusCode).toBe(503);
      const sqlite = plain.db.provider === 'sqlite';
      expect(ready.json().checks).toEqual({
        database: 'ok',
        migrations: 'ok',
        outbox: 'not started',
        disk: sqlite ? expect.stringMatching(/^\d+ MiB free, below the floor of \d+ MiB$/) : 'ok',
      });
      expect(ready.json().detail).toMatch(
        sqlite ? /^Not ready: outbox not started; disk \d+ MiB free/ : /^Not ready: outbox not started\./,
      );
      expect((await plain.call('GET', '/v1', { token: null })).json().links.metrics).toBeUndefined();
    } finally {
      await plain.close();
    }
    expect((await t.call('GET', '/v1', { token: null })).json().links).toMatchObject({
      health: expect.stringMatching(/\/healthz$/),
      ready: expect.stringMatching(/\/readyz$/),
      metrics: expect.stringMatching(/\/metrics$/),
    });
  });

  it('after a fulfillment through HTTP: requests by route pattern and status, the label purchase, the outbox, statements, process metrics', async () => {
    const call = (method: string, url: string, body?: unknown) => t.call(method, url, body === undefined ? {} : { body });
    expect((await call('POST', '/v1/webhooks', { url: hookUrl, events: ['package.fulfilled'] })).statusCode).toBe(201);
    expect(
      (
        await call('POST', '/v1/ops/carrier-rates', {
          carrier_id: 'ups',
          carrier_name: 'UPS',
          service_id: 'ground',
          service_name: 'Ground',
          amount: 5,
        })
      ).statusCode,
    ).toBe(201);
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    expect((await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'm', timeout_minutes: 10 })).statusCode).toBe(
      200,
    );
    const p = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      weight: 500,
      weight_unit: 'G',
      package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
    });
    expect(p.statusCode, p.body).toBe(201);
    const id = p.json().id as string;
    const label = await call('POST', `/v1/ops/packages/${id}/label`, { rate_strategy: 'CHEAPEST' });
    expect(label.statusCode, label.body).toBe(200);
    expect((await call('POST', `/v1/ops/packages/${id}/fulfill`, { locked_by: 'm' })).statusCode).toBe(200);
    expect((await call('GET', `/v1/ops/packages/${id}`)).statusCode).toBe(200);
    expect((await call('GET', '/v1/ops/packages/pkg_nope')).statusCode).toBe(404);
    // A tracking push whose order is gone fails (at once: nothing could ever send it).
    await t.db.prisma.$transaction((tx) =>
      enqueueEvent(tx, t.teamId, 'tracking.push', { tracking: { tracking_code: 'T1' }, order: { id: 'ord_gone' } }),
    );
    // One outbox pass: the delivery to the failing receiver is retried later, the push fails.
    const pass = await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce();
    expect(pass.retrying).toBeGreaterThanOrEqual(1);

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    const req = (method: string, route: string, status: number) =>
      sample(text, `fos_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`);
    expect(req('POST', '/v1/ops/packages', 201)).toBe(1);
    expect(req('POST', '/v1/ops/packages/:package_id/label', 200)).toBe(1);
    expect(req('POST', '/v1/ops/packages/:package_id/fulfill', 200)).toBe(1);
    expect(req('GET', '/v1/ops/packages/:package_id', 200)).toBe(1);
    expect(req('GET', '/v1/ops/packages/:package_id', 404)).toBe(1);
    expect(req('GET', '/healthz', 200)).toBe(20);
    expect(
      sample(
        text,
        'fos_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/v1/ops/packages/:package_id/fulfill",status="200"}',
      ),
    ).toBe(1);
    expect(text).not.toContain(id); // route patterns, never URLs with ids
    expect(sample(text, 'fos_label_purchases_total{carrier="ups",outcome="bought"}')).toBe(1);
    expect(sample(text, 'fos_rate_limit_rejections_total{route="/v1/me"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fos_webhook_delivery_failures_total{final="false"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fos_channel_push_failures_total{kind="tracking"}')).toBe(1);
    expect(sample(text, 'fos_db_query_duration_seconds_count')).toBeGreaterThan(10);
    // The outbox gauges are what the database holds.
    const waiting = await t.db.prisma.webhookDelivery.count({ where: { status: 'PENDING' } });
    expect(waiting).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fos_outbox_pending{queue="webhook_deliveries"}')).toBe(waiting);
    expect(sample(text, 'fos_outbox_pending{queue="events"}')).toBe(
      await t.db.prisma.outboxEvent.count({ where: { delivered_at: null, failed_at: null } }),
    );
    expect(sample(text, 'fos_outbox_oldest_age_seconds{queue="webhook_deliveries"}')).toBeGreaterThanOrEqual(0);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('counts a transaction retried after a deadlock, and the deadlock', async () => {
    const before = await scrape();
    let runs = 0;
    const out = await transaction(t.db, async () => {
      if (++runs === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      return 'done';
    });
    expect(out).toBe('done');
    const after = (await scrape()).body;
    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before.body, series) ?? 0);
    expect(delta('fos_db_transaction_retries_total{reason="deadlock"}')).toBe(1);
    expect(delta('fos_db_deadlocks_total')).toBe(1);
  });

  it('the sample Grafana dashboard queries only metrics /metrics exports', async () => {
    const text = (await scrape()).body;
    const dashboard = JSON.parse(readFileSync(path.join(packageRoot(), 'docs', 'grafana-fos.json'), 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: { targets?: Array<{ expr: string }> }) => (p.targets ?? []).map((x) => x.expr));
    expect(exprs.length).toBeGreaterThan(8);
    const names = new Set(exprs.flatMap((e) => e.match(/\b(?:fos|process|nodejs)_[a-z0-9_]+/g) ?? []));
    for (const name of names) {
      const base = name.replace(/_(bucket|count|sum)$/, '');
      expect(text, `${name} (dashboard) is not exported`).toContain(`# TYPE ${base} `);
    }
  });
});

describe('readiness failing', () => {
  it('outbox worker stopped -> 503 naming it; /healthz still 200', async () => {
    await worker.stop();
    const res = await t.call('GET', '/readyz', { token: null });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 503, checks: { database: 'ok', migrations: 'ok', outbox: 'stopped', disk: 'ok' } });
    expect(res.json().detail).toMatch(/^Not ready: outbox stopped\. \(support reference: /);
    expect((await t.call('GET', '/healthz', { token: null })).statusCode).toBe(200);
  });

  it('database gone (PostgreSQL: dropped; SQLite: its directory removed) -> 503 naming it; /healthz still 200', async () => {
    if (t.db.provider === 'postgresql') {
      const admin = new pg.Client({ connectionString: TEST_PG_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE "${new URL(t.db.url).pathname.slice(1)}" WITH (FORCE)`);
      await admin.end();
    } else {
      // The volume gone: the file's directory removed under a closed client, which reopens on the next query.
      await t.db.close();
      await rm(path.dirname(t.db.url.slice('file:'.length)), { recursive: true, force: true });
    }
    const res = await t.call('GET', '/readyz', { token: null });
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body.checks.database).toBe('unreachable'); // no host, database name or driver message to anyone who asks
    expect(body.checks.migrations).toBe('unknown (the database did not answer)');
    expect(body.detail).toMatch(/^Not ready: database unreachable; migrations unknown \(the database did not answer\)/);
    expect((await t.call('GET', '/healthz', { token: null })).statusCode).toBe(200);
  });
});
