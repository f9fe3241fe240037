import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { LEASE_MS, processDueEvents, type WebhookSender } from '../../src/domain/webhooks/dispatch.js';
import { defaultSalesChannelAdapters } from '../../src/domain/events/sales-channel.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';
import { EVENT_ID_HEADER } from '../../src/domain/webhooks/signature.js';

// Batched claims of the outbox (issue 9): one UPDATE claims a batch, and the rows a worker owns
// are those stamped with its pass's claim id. Several workers draining one backlog at once must
// still fan out each event once and POST each delivery once; a worker whose lease was taken
// over mid-pass must write nothing. On SQLite and PostgreSQL.

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
});
afterAll(() => t?.close());

/** A sender counting each (key of the call) it is given, answering 200 after up to `jitterMs`. */
function countingSender(keyOf: (url: string, headers: Record<string, string>) => string, jitterMs = 0) {
  const sent = new Map<string, number>();
  const send: WebhookSender = async (url, _body, headers) => {
    const key = keyOf(url, headers);
    sent.set(key, (sent.get(key) ?? 0) + 1);
    if (jitterMs) await new Promise((r) => setTimeout(r, Math.random() * jitterMs));
    return { ok: true, status: 200, error: null };
  };
  return { sent, send };
}

/** Three outbox workers running passes at once until each has had two idle passes in a row. */
async function drainWithThreeWorkers(send: WebhookSender) {
  const drain = async () => {
    const w = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, send, batchSize: 20, concurrency: 4 });
    for (let idle = 0; idle < 2;) {
      const s = await w.runOnce();
      idle = s.events + s.delivered + s.retrying + s.failed ? 0 : idle + 1;
    }
  };
  await Promise.all([drain(), drain(), drain()]);
}

describe('batched outbox claims', () => {
  it('three workers draining 150 events to two endpoints at once send each delivery exactly once', async () => {
    for (const port of [9, 10]) {
      expect((await t.call('POST', '/v1/webhooks', { body: { url: `http://127.0.0.1:${port}/hook`, events: ['*'] } })).statusCode).toBe(
        201,
      );
    }
    await t.db.prisma.outboxEvent.createMany({
      data: Array.from({ length: 150 }, (_, i) => ({ team_id: t.teamId, kind: 'package.created', payload: { n: i } })),
    });
    const { sent, send } = countingSender((url, headers) => `${url} ${headers[EVENT_ID_HEADER]}`, 3);
    await drainWithThreeWorkers(send);

    expect(sent.size).toBe(300);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    expect(await t.db.prisma.outboxEvent.count({ where: { delivered_at: null } })).toBe(0);
    expect(await t.db.prisma.webhookDelivery.count({ where: { status: 'DELIVERED', attempts: 1 } })).toBe(300);
  });

  it('a worker whose lease ran out and was taken over writes nothing', async () => {
    await t.db.prisma.webhookEndpoint.deleteMany();
    await t.db.prisma.outboxEvent.deleteMany();
    await t.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/late', events: ['*'] } });
    await t.db.prisma.outboxEvent.createMany({
      data: [1, 2, 3].map((n) => ({ team_id: t.teamId, kind: 'package.created', payload: { n } })),
    });
    const adapters = defaultSalesChannelAdapters();
    // Worker A claims the batch; before it fans out, its lease runs out and worker B claims and fans out.
    const T = new Date();
    const claimed = await t.db.prisma.outboxEvent.updateMany({
      data: { claim_id: 'worker-a', attempts: 1, next_attempt_at: new Date(T.getTime() - 1) },
    });
    expect(claimed.count).toBe(3);
    expect(await processDueEvents(t.db, new Date(T.getTime() + LEASE_MS), { batchSize: 10, adapters })).toBe(3);
    expect(await t.db.prisma.webhookDelivery.count()).toBe(3);
    // Worker A now tries to write its outcome under its own claim id: nothing matches, nothing is written.
    const late = await t.db.prisma.outboxEvent.updateMany({ where: { claim_id: 'worker-a' }, data: { last_error: 'late' } });
    expect(late.count).toBe(0);
    expect(await t.db.prisma.outboxEvent.count({ where: { delivered_at: { not: null }, attempts: 2 } })).toBe(3);
  });
  it('an event nobody is sent is claimed and marked delivered in one write, once, with three workers at once', async () => {
    await t.db.prisma.webhookEndpoint.deleteMany();
    await t.db.prisma.webhookDelivery.deleteMany();
    await t.db.prisma.outboxEvent.deleteMany();
    await t.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/orders', events: ['order.created'] } });
    await t.db.prisma.outboxEvent.createMany({
      data: Array.from({ length: 90 }, (_, i) => ({
        team_id: t.teamId,
        kind: i % 3 ? 'charge.created' : 'order.created', // 60 nobody subscribes to, 30 for the endpoint
        payload: { n: i },
      })),
    });
    // Every UPDATE of an event row counted by a trigger (both databases).
    const pg = t.db.provider === 'postgresql';
    const ddl = pg
      ? [
          'CREATE TABLE "zz_event_writes" ("id" TEXT)',
          `CREATE FUNCTION "zz_count_event_write"() RETURNS trigger AS $$ BEGIN INSERT INTO "zz_event_writes" VALUES (NEW."id"); RETURN NULL; END $$ LANGUAGE plpgsql`,
          'CREATE TRIGGER "zz_event_write" AFTER UPDATE ON "outbox_events" FOR EACH ROW EXECUTE FUNCTION "zz_count_event_write"()',
        ]
      : [
          'CREATE TABLE "zz_event_writes" ("id" TEXT)',
          'CREATE TRIGGER "zz_event_write" AFTER UPDATE ON "outbox_events" BEGIN INSERT INTO "zz_event_writes" VALUES (NEW."id"); END',
        ];
    for (const sql of ddl) await t.db.prisma.$executeRawUnsafe(sql);
    try {
      const { sent, send } = countingSender((_url, headers) => headers[EVENT_ID_HEADER]!);
      await drainWithThreeWorkers(send);

      const events = await t.db.prisma.outboxEvent.findMany();
      expect(events.filter((e) => e.delivered_at !== null && e.attempts === 1 && e.claim_id !== null)).toHaveLength(90);
      expect(sent.size).toBe(30);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      const orderEvents = new Set(events.filter((e) => e.kind === 'order.created').map((e) => e.id));
      expect(new Set(sent.keys())).toEqual(orderEvents);
      const writes = await t.db.prisma.$queryRawUnsafe<Array<{ id: string; n: unknown }>>(
        'SELECT "id", COUNT(*) AS "n" FROM "zz_event_writes" GROUP BY "id"',
      );
      const writesOf = new Map(writes.map((w) => [w.id, Number(w.n)]));
      // The quiet ones: one write each (claimed and delivered at once); the sent ones: claim, then delivered.
      for (const e of events) expect(writesOf.get(e.id), e.kind).toBe(e.kind === 'order.created' ? 2 : 1);
    } finally {
      const drop = pg
        ? ['DROP TRIGGER "zz_event_write" ON "outbox_events"', 'DROP FUNCTION "zz_count_event_write"()', 'DROP TABLE "zz_event_writes"']
        : ['DROP TRIGGER "zz_event_write"', 'DROP TABLE "zz_event_writes"'];
      for (const sql of drop) await t.db.prisma.$executeRawUnsafe(sql);
    }
  });
});
