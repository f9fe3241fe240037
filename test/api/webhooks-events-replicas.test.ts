import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, freshSqliteUrl } from '../helpers/db.js';
import { replicaWorld, startReplicas, type Replicas, type ReplicaWorld } from '../helpers/replicas.js';

// GET /v1/webhooks/events (what `fos webhooks listen` polls) across two `fos serve` processes
// on one database (PostgreSQL with FOS_TEST_DB=postgres, else one SQLite file): the events are
// read from the outbox table, so a poll waiting on one replica gets what the other one wrote.
// POST /v1/webhooks/events (fos webhooks trigger) writes a sample through the same outbox.

let w: ReplicaWorld;
let r: Replicas;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const fresh = process.env.FOS_TEST_DB === 'postgres' ? await freshPostgresUrl() : await freshSqliteUrl();
  cleanup = fresh.cleanup;
  w = await replicaWorld(fresh.url);
  r = await startReplicas(fresh.url, 2);
}, 90_000);
afterAll(async () => {
  await r?.stop();
  await w?.db.close();
  await cleanup?.();
});

describe("the team's event stream over replicas", () => {
  it('a waiting poll on one replica answers with the event another replica wrote, then continues after it', async () => {
    const start = await r.send(0, 'GET', '/webhooks/events', undefined, w.token);
    expect(start.status).toBe(200);
    expect(start.body.data).toEqual([]);
    const after = start.body.meta.next_after;
    const waiting = r.send(0, 'GET', `/webhooks/events?after=${after}&wait=20&types=order.*`, undefined, w.token);
    // Not of the family asked for: the poll keeps waiting through it.
    expect((await r.send(1, 'POST', '/webhooks/events', { type: 'package.fulfilled' }, w.token)).status).toBe(201);
    const sent = await r.send(1, 'POST', '/webhooks/events', { type: 'order.created' }, w.token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const got = await waiting;
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual([sent.body]);
    expect(sent.body).toMatchObject({ type: 'order.created', data: { sample: true } });
    expect(got.body.meta.next_after).toBe(sent.body.id);

    const all = await r.send(1, 'GET', `/webhooks/events?after=${after}`, undefined, w.token);
    expect(all.body.data.map((e: { type: string }) => e.type)).toEqual(['package.fulfilled', 'order.created']);
    const none = await r.send(1, 'GET', `/webhooks/events?after=${sent.body.id}&types=order.*`, undefined, w.token);
    expect(none.body.data).toEqual([]);
  }, 60_000);

  it('refuses unknown types (400), bad cursors and waits (400), and callers without MANAGE_WEBHOOKS', async () => {
    expect((await r.send(0, 'GET', '/webhooks/events?types=nope.*', undefined, w.token)).status).toBe(400);
    expect((await r.send(0, 'GET', '/webhooks/events?after=xyz', undefined, w.token)).status).toBe(400);
    expect((await r.send(0, 'GET', '/webhooks/events?wait=26', undefined, w.token)).status).toBe(400);
    expect((await r.send(0, 'POST', '/webhooks/events', { type: 'order.nope' }, w.token)).status).toBe(400);
    expect((await r.send(0, 'POST', '/webhooks/events', { type: 'order.created', extra: 1 }, w.token)).status).toBe(400);
    expect((await r.send(0, 'GET', '/webhooks/events', undefined, 'fos_nope')).status).toBe(401);
  });
});
