import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { recordSqliteStatements } from '../helpers/statements.js';
import type { WebhookSender } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// The outbox worker's writes find their rows by id (SQLite): without statistics SQLite's planner
// took the claim's `delivered_at IS NULL` / `status = 'PENDING'` terms to an index over every due
// row (a backlog of thousands read by each claim of a few), and marking events delivered walked
// every undelivered event for each of its rows. With a backlog behind a small batch, every UPDATE
// of the pass must search its table by the primary key, and a re-fanned event's deliveries are
// looked up by (endpoint, event), not by reading every delivery.

const sqlite = (process.env.FOS_TEST_DB ?? 'sqlite') === 'sqlite';
let t: TestApp;
beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
});
afterAll(() => t?.close());

describe.skipIf(!sqlite)('the outbox pass reads a backlog by id', () => {
  it('claims, marks delivered and records outcomes through the primary keys, not the due indexes', async () => {
    expect((await t.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } })).statusCode).toBe(201);
    await t.db.prisma.outboxEvent.createMany({
      data: Array.from({ length: 60 }, (_, i) => ({ team_id: t.teamId, kind: 'package.created', payload: { n: i } })),
    });
    let ok = false;
    const send: WebhookSender = async () => (ok ? { ok: true, status: 200, error: null } : { ok: false, status: 503, error: 'HTTP 503' });
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, send, batchSize: 5 });
    const statements: string[] = [];
    const stop = recordSqliteStatements(statements);
    try {
      await worker.runOnce(); // 5 events fanned out, their 5 deliveries failed once (a backlog of 55 events behind)
      // Events a lost lease left behind: fanned out again, their existing deliveries looked up first.
      await t.db.prisma.outboxEvent.updateMany({ where: { delivered_at: null }, data: { attempts: 1 } });
      await worker.runOnce();
      ok = true;
      await worker.runOnce(new Date(Date.now() + 3_600_000)); // the retries delivered
    } finally {
      stop();
    }
    const updates = [...new Set(statements.filter((s) => /^\s*(WITH[\s\S]*)?UPDATE "(outbox_events|webhook_deliveries)"/.test(s)))];
    expect(updates.length).toBeGreaterThanOrEqual(4); // claims of both tables, delivered marks, an outcome
    for (const sql of updates) {
      const plan = (await t.db.prisma.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`)).map((r) => r.detail).join('\n');
      expect(plan, sql).toMatch(/USING INDEX sqlite_autoindex_(outbox_events|webhook_deliveries)_1 \(id=\?\)/);
      expect(plan, sql).not.toMatch(/delivered_at_next_attempt_at_idx|status_next_attempt_at_idx/);
    }
    const lookups = [...new Set(statements.filter((s) => /^\s*SELECT "endpoint_id", "event_id" FROM "webhook_deliveries"/.test(s)))];
    expect(lookups.length).toBeGreaterThan(0);
    for (const sql of lookups) {
      const plan = (await t.db.prisma.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`)).map((r) => r.detail).join('\n');
      expect(plan, sql).toMatch(
        /SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_endpoint_id_event_id_key \(endpoint_id=\? AND event_id=\?\)/,
      );
    }
    expect(await t.db.prisma.webhookDelivery.count({ where: { status: 'DELIVERED' } })).toBeGreaterThanOrEqual(5);
  });
});
