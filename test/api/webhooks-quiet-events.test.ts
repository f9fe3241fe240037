import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { transaction } from '../../src/db/tx.js';
import { enqueueEvents, type EventKind } from '../../src/domain/events/index.js';
import type { WebhookSender } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// An event nobody is sent (no active endpoint of its team subscribes to its kind, and it is not a
// tracking.push) is written delivered by its own INSERT (src/domain/events/store.ts): no worker
// pass reads, claims or writes it again. Every other event is written due, and the worker sends it.

let t: TestApp;
let merchant: string;
let silentTeam: string;
beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  merchant = (await t.merchant()).teamId;
  silentTeam = (await t.merchant()).teamId;
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.db.prisma.webhookEndpoint.deleteMany();
  await t.db.prisma.outboxEvent.deleteMany();
});

const endpoint = (team_id: string, events: string[], active = true) =>
  t.db.prisma.webhookEndpoint.create({ data: { team_id, url: `http://127.0.0.1:9/${events.join('-')}`, events, secret: 's', active } });

const rowsByKind = async () => {
  const rows = await t.db.prisma.outboxEvent.findMany({ orderBy: { id: 'asc' } });
  return rows.map((r) => ({
    team: r.team_id,
    kind: r.kind,
    delivered: r.delivered_at !== null,
    attempts: r.attempts,
    claim: r.claim_id,
    r,
  }));
};

describe('events nobody is sent are written delivered', () => {
  it('the INSERT decides by the active endpoints of each event team and kind; the worker sends only the rest', async () => {
    await endpoint(t.teamId, ['package.created']);
    await endpoint(t.teamId, ['*'], false); // inactive: subscribes nobody
    await endpoint(merchant, ['*']);
    await endpoint(silentTeam, ['order.created']); // another kind only
    const events: Array<{ teamId: string; kind: EventKind; payload: Record<string, unknown> }> = [
      { teamId: t.teamId, kind: 'package.created', payload: { n: 1 } }, // subscribed by kind
      { teamId: t.teamId, kind: 'order.created', payload: { n: 2 } }, // only the inactive '*'
      { teamId: t.teamId, kind: 'tracking.push', payload: { order: { id: 'o-1' } } }, // a push is always due
      { teamId: merchant, kind: 'charge.created', payload: { n: 4 } }, // subscribed by '*'
      { teamId: silentTeam, kind: 'charge.created', payload: { n: 5 } }, // its endpoint takes another kind
    ];
    await transaction(t.db, (tx) => enqueueEvents(tx, events));

    const rows = await rowsByKind();
    expect(rows.map(({ team, kind, delivered, attempts, claim }) => ({ team, kind, delivered, attempts, claim }))).toEqual([
      { team: t.teamId, kind: 'package.created', delivered: false, attempts: 0, claim: null },
      { team: t.teamId, kind: 'order.created', delivered: true, attempts: 0, claim: null },
      { team: t.teamId, kind: 'tracking.push', delivered: false, attempts: 0, claim: null },
      { team: merchant, kind: 'charge.created', delivered: false, attempts: 0, claim: null },
      { team: silentTeam, kind: 'charge.created', delivered: true, attempts: 0, claim: null },
    ]);
    // Delivered at the instant it was written; its payload kept for GET /v1/webhooks/events.
    for (const { r, delivered } of rows) if (delivered) expect(r.delivered_at).toEqual(r.created_at);
    expect(rows[1]!.r.payload).toEqual({ n: 2 });

    const sent: Array<{ url: string; type: unknown }> = [];
    const send: WebhookSender = async (url, body) => {
      sent.push({ url, type: JSON.parse(body).type });
      return { ok: true, status: 200, error: null };
    };
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, send });
    const now = new Date(Date.now() + 1000);
    const stats = await worker.runOnce(now);
    expect(stats.delivered).toBe(2);
    expect(sent.map((s) => s.type).sort()).toEqual(['charge.created', 'package.created']);
    // The pass claimed the three due events (the push, whose order is no shop's, as a failure) and
    // wrote none of the two quiet ones.
    const after = await rowsByKind();
    expect(after.map(({ kind, attempts, claim }) => ({ kind, attempts, claimed: claim !== null }))).toEqual([
      { kind: 'package.created', attempts: 1, claimed: true },
      { kind: 'order.created', attempts: 0, claimed: false },
      { kind: 'tracking.push', attempts: 1, claimed: true },
      { kind: 'charge.created', attempts: 1, claimed: true },
      { kind: 'charge.created', attempts: 0, claimed: false },
    ]);
    for (const i of [1, 4]) expect(after[i]!.r).toEqual(rows[i]!.r);
  });

  it('through HTTP: a sample event is written delivered until an endpoint subscribes, then due', async () => {
    const trigger = async () => {
      const res = await t.call('POST', '/v1/webhooks/events', { body: { type: 'order.created' } });
      expect(res.statusCode).toBe(201);
      return (await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: res.json().id } })).delivered_at;
    };
    expect(await trigger()).not.toBeNull();
    const res = await t.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] } });
    expect(res.statusCode).toBe(201);
    expect(await trigger()).toBeNull();
    await t.call('PATCH', `/v1/webhooks/${res.json().id}`, { body: { active: false } });
    expect(await trigger()).not.toBeNull();
    // The listener's feed shows all three, delivered or not.
    const feed = await t.call('GET', '/v1/webhooks/events', { query: { after: '00000000-0000-0000-0000-000000000000' } });
    expect(feed.json().data.map((e: { type: string }) => e.type)).toEqual(['order.created', 'order.created', 'order.created']);
  });
});
