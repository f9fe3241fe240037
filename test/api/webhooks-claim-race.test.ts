import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { enqueueEvent } from '../../src/domain/events/outbox.js';
import { LEASE_MS, type SendResult, type WebhookSender } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// Claiming across replicas when a pass is slow: a worker's `now` is when its pass started, but
// it may claim a delivery long after (earlier POSTs took their time). The lease must run from
// the claim, and the attempt is counted by the claim, so another replica neither re-sends the
// delivery while it is in flight nor loses an attempt from the count.

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
});
afterAll(() => t?.close());

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('webhook delivery claims', () => {
  it('a delivery claimed late in a slow pass is not claimed again by another replica', async () => {
    const res = await t.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
    expect(res.statusCode).toBe(201);
    await t.db.prisma.$transaction((tx) => enqueueEvent(tx, t.teamId, 'package.created', { n: 1 }));

    const T = new Date();
    const sends: string[] = [];
    const failing: WebhookSender = async () => {
      sends.push('first');
      return { ok: false, status: 500, error: 'HTTP 500' };
    };
    // First attempt (fan-out and a 500), moved 100 s into the past: the retry is due at T - 70 s.
    expect(await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, send: failing }).runOnce(T)).toMatchObject({
      events: 1,
      retrying: 1,
    });
    await t.db.prisma.webhookDelivery.updateMany({ data: { next_attempt_at: at(T, -70_000) } });

    let release!: (r: SendResult) => void;
    const blocked = new Promise<SendResult>((r) => (release = r));
    let inFlight!: () => void;
    const started = new Promise<void>((r) => (inFlight = r));
    const slow: WebhookSender = async () => {
      sends.push('replica A');
      inFlight();
      return blocked;
    };
    const counting: WebhookSender = async () => {
      sends.push('replica B');
      return { ok: true, status: 200, error: null };
    };
    // Replica A's pass started LEASE_MS + 10 s ago; it claims the retry only now and hangs in the POST.
    const passA = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, send: slow }).runOnce(at(T, -(LEASE_MS + 10_000)));
    await started;
    // Replica B starts a pass now, while A's POST is in flight.
    const statsB = await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, send: counting }).runOnce(
      new Date(Math.max(T.getTime(), Date.now())),
    );
    release({ ok: true, status: 200, error: null });
    await passA;

    expect(sends).toEqual(['first', 'replica A']);
    expect(statsB).toMatchObject({ delivered: 0, retrying: 0, failed: 0 });
    const d = await t.db.prisma.webhookDelivery.findFirstOrThrow();
    expect(d).toMatchObject({ status: 'DELIVERED', attempts: sends.length, response_status: 200 });
  });
});
