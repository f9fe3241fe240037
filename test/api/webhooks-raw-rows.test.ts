import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { RETRY_SCHEDULE_MS, webhookBody, type WebhookSender } from '../../src/domain/webhooks/dispatch.js';
import { findActiveEndpoints, findDueDeliveries, findDueEvents, findEvents } from '../../src/domain/webhooks/store/outbox.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// The outbox worker reads its rows on the raw driver (src/domain/webhooks/store/outbox.ts) and types them itself: each
// must equal the row Prisma's client reads (Date columns as Date, JSON parsed, booleans, ints,
// nulls), or a webhook's body (webhookBody: created_at, payload) and a test label's payload would
// change bytes. Rows written by the worker's own statements must read back through Prisma too.

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.db.prisma.webhookEndpoint.deleteMany(); // and their deliveries
  await t.db.prisma.outboxEvent.deleteMany();
});

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

describe('the outbox worker rows on the raw driver', () => {
  it('read as Prisma reads them: events, endpoints and due deliveries with their endpoint', async () => {
    const T = new Date(Date.UTC(2026, 10, 29, 12, 0, 0, 123));
    const live = await t.db.prisma.webhookEndpoint.create({
      data: { team_id: t.teamId, url: 'http://127.0.0.1:9/live', events: ['*'], secret: 's1', description: 'décrit' },
    });
    const test = await t.db.prisma.webhookEndpoint.create({
      data: { team_id: t.teamId, url: 'http://127.0.0.1:9/test', events: ['tracking.push', 'charge.created'], secret: 's2', test: true },
    });
    await t.db.prisma.webhookEndpoint.create({
      data: { team_id: t.teamId, url: 'http://127.0.0.1:9/off', events: ['*'], secret: 's3', active: false },
    });
    const payloads = [
      {
        n: 1,
        f: 0.1 + 0.2,
        big: 2 ** 53 - 1,
        neg: -0.5,
        s: 'ünïcødé "quoted" \\ back',
        nested: { a: [1, null, true, { b: 'x' }] },
        none: null,
      },
      { tracking_number: '1Z', order: { id: 'o', order_number: '#1001' }, shop: null, test_label: true },
      { empty: {}, list: [] },
    ];
    await t.db.prisma.outboxEvent.createMany({
      data: payloads.map((payload, i) => ({
        team_id: t.teamId,
        kind: i === 1 ? 'tracking.push' : 'package.created',
        payload,
        attempts: i,
        next_attempt_at: at(T, -1000 * (i + 1)),
        created_at: at(T, -5000 - i),
        ...(i === 2 ? { last_error: 'HTTP 500', result: { tracking_push: { status: 'SKIPPED' } }, claim_id: 'old' } : {}),
      })),
    });
    // Not due: delivered, failed, or later.
    await t.db.prisma.outboxEvent.createMany({
      data: [
        { team_id: t.teamId, kind: 'x', payload: {}, delivered_at: at(T, -1), next_attempt_at: at(T, -9000) },
        { team_id: t.teamId, kind: 'x', payload: {}, failed_at: at(T, -1), next_attempt_at: at(T, -9000) },
        { team_id: t.teamId, kind: 'x', payload: {}, next_attempt_at: at(T, 1) },
      ],
    });

    const prismaDue = await t.db.prisma.outboxEvent.findMany({
      where: { delivered_at: null, failed_at: null, next_attempt_at: { lte: T } },
      orderBy: [{ next_attempt_at: 'asc' }, { id: 'asc' }],
      take: 10,
    });
    const rawDue = await findDueEvents(t.db, T, 10);
    expect(prismaDue).toHaveLength(3);
    // The pass reads a payload only where it pushes it (tracking.push); deliveries read it by id.
    const asDue = (e: (typeof prismaDue)[number]) => ({ ...e, payload: e.kind === 'tracking.push' ? e.payload : null });
    expect(rawDue).toStrictEqual(prismaDue.map(asDue));
    expect(rawDue.map((e) => e.payload === null)).toEqual([true, false, true]);
    expect(await findDueEvents(t.db, T, 2)).toStrictEqual(prismaDue.slice(0, 2).map(asDue));
    expect(rawDue[0]!.created_at).toBeInstanceOf(Date);
    const rawEvents = byId(
      await findEvents(
        t.db,
        prismaDue.map((e) => e.id),
      ),
    );
    expect(rawEvents).toStrictEqual(byId(prismaDue));

    const endpoints = byId(await findActiveEndpoints(t.db, t.teamId));
    expect(endpoints).toStrictEqual(byId(await t.db.prisma.webhookEndpoint.findMany({ where: { team_id: t.teamId, active: true } })));
    expect(endpoints.map((e) => [e.active, e.test])).toEqual([
      [true, false],
      [true, true],
    ]);
    // The body a webhook gets is the same bytes from either row.
    for (const [i, e] of byId(prismaDue).entries())
      for (const ep of [live, test]) expect(webhookBody(rawEvents[i]!, ep)).toBe(webhookBody(e, ep));

    await t.db.prisma.webhookDelivery.createMany({
      data: [
        { endpoint_id: live.id, event_id: rawDue[0]!.id, event_kind: 'package.created', next_attempt_at: at(T, -3), attempts: 2 },
        {
          endpoint_id: test.id,
          event_id: rawDue[1]!.id,
          event_kind: 'tracking.push',
          next_attempt_at: at(T, -2),
          response_status: 500,
          last_error: 'HTTP 500',
          claim_id: 'c',
        },
        { endpoint_id: live.id, event_id: rawDue[1]!.id, event_kind: 'tracking.push', next_attempt_at: at(T, 5) },
        { endpoint_id: live.id, event_id: rawDue[2]!.id, event_kind: 'package.created', status: 'FAILED', next_attempt_at: at(T, -3) },
      ],
    });
    const prismaDeliveries = await t.db.prisma.webhookDelivery.findMany({
      where: { status: 'PENDING', next_attempt_at: { lte: T }, endpoint: { active: true } },
      include: { endpoint: true },
      orderBy: [{ next_attempt_at: 'asc' }, { id: 'asc' }],
      take: 10,
    });
    expect(prismaDeliveries).toHaveLength(2);
    expect(await findDueDeliveries(t.db, T, 10)).toStrictEqual(prismaDeliveries);
    expect(await findDueDeliveries(t.db, T, 1)).toStrictEqual(prismaDeliveries.slice(0, 1));
  });

  it("a row whose dates are the columns' SQL defaults (CURRENT_TIMESTAMP: SQLite's text has no zone) reads as Prisma reads it", async () => {
    await t.db.prisma.$executeRawUnsafe(
      `INSERT INTO "outbox_events" ("id", "team_id", "kind", "payload") VALUES ('00000000-0000-7000-8000-000000000001', '${t.teamId}', 'x', '{"a":1}')`,
    );
    const later = new Date(Date.now() + 86_400_000);
    const [viaPrisma] = await t.db.prisma.outboxEvent.findMany({ where: { next_attempt_at: { lte: later } } });
    expect(viaPrisma?.created_at.getTime()).toBeGreaterThan(Date.now() - 86_400_000);
    expect(await findDueEvents(t.db, later, 10)).toStrictEqual([{ ...viaPrisma, payload: null }]);
    expect(await findEvents(t.db, [viaPrisma!.id])).toStrictEqual([viaPrisma]);
  });

  it("rows the worker writes read back through Prisma, and its claims, retries and outcomes are Prisma's", async () => {
    const ep = await t.db.prisma.webhookEndpoint.create({
      data: { team_id: t.teamId, url: 'http://127.0.0.1:9/hook', events: ['*'], secret: 's' },
    });
    await t.db.prisma.outboxEvent.createMany({
      data: [1, 2].map((n) => ({ team_id: t.teamId, kind: 'package.created', payload: { n } })),
    });
    let status = 500;
    const send: WebhookSender = async () =>
      status < 300 ? { ok: true, status, error: null } : { ok: false, status, error: `HTTP ${status}` };
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, send });
    const T = new Date(Date.now() + 1000);
    const before = Date.now();
    expect(await worker.runOnce(T)).toMatchObject({ events: 2, retrying: 2 });

    const events = await t.db.prisma.outboxEvent.findMany();
    expect(events.every((e) => e.attempts === 1 && e.delivered_at?.getTime() === T.getTime() && e.claim_id)).toBe(true);
    const retried = await t.db.prisma.webhookDelivery.findMany({ orderBy: { id: 'asc' } });
    expect(retried).toHaveLength(2);
    for (const d of retried) {
      expect(d).toMatchObject({ endpoint_id: ep.id, status: 'PENDING', attempts: 1, response_status: 500, last_error: 'HTTP 500' });
      expect(d.next_attempt_at).toEqual(at(T, RETRY_SCHEDULE_MS[0]!));
      expect(d.created_at.getTime()).toBeGreaterThanOrEqual(before);
      expect(d.updated_at.getTime()).toBeGreaterThanOrEqual(d.created_at.getTime());
    }
    // Not due before its retry; then delivered, with the response's status.
    expect(await worker.runOnce(at(T, RETRY_SCHEDULE_MS[0]! - 1))).toMatchObject({ delivered: 0, retrying: 0 });
    status = 202;
    expect(await worker.runOnce(at(T, RETRY_SCHEDULE_MS[0]!))).toMatchObject({ delivered: 2 });
    const done = await t.db.prisma.webhookDelivery.findMany();
    expect(done.every((d) => d.status === 'DELIVERED' && d.attempts === 2 && d.response_status === 202 && d.last_error === null)).toBe(
      true,
    );
    expect(done.every((d) => d.delivered_at?.getTime() === at(T, RETRY_SCHEDULE_MS[0]!).getTime())).toBe(true);
  });

  it("an idle pass and a pass that fans out and delivers make no call on Prisma's client", async () => {
    await t.db.prisma.webhookEndpoint.create({ data: { team_id: t.teamId, url: 'http://127.0.0.1:9/hook', events: ['*'], secret: 's' } });
    await t.db.prisma.outboxEvent.createMany({ data: [1, 2].map((n) => ({ team_id: t.teamId, kind: 'package.created', payload: { n } })) });
    const sent: string[] = [];
    const prisma = t.db.prisma;
    const touched: string[] = [];
    t.db.prisma = new Proxy(prisma, { get: (target, prop, recv) => (touched.push(String(prop)), Reflect.get(target, prop, recv)) });
    try {
      const worker = createOutboxWorker(t.db, silent, {
        allowPrivateWebhooks: true,
        send: async (_url, body) => (sent.push(body), { ok: true, status: 200, error: null }),
      });
      expect(await worker.runOnce(new Date(Date.now() + 1000))).toMatchObject({ events: 2, delivered: 2 });
      expect(await worker.runOnce(new Date(Date.now() + 1000))).toMatchObject({ events: 0, delivered: 0 });
    } finally {
      t.db.prisma = prisma;
    }
    expect(touched).toEqual([]);
    expect(sent).toHaveLength(2);
    expect(await t.db.prisma.webhookDelivery.count({ where: { status: 'DELIVERED' } })).toBe(2);
  });
});
