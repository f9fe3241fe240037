// Outbox drain: N events (one webhook endpoint subscribed to all) queued on a temp SQLite
// database, then one startOutboxWorker drains them to a local HTTP receiver. Figure: events
// delivered per second from the worker's start until no event or delivery is left pending.
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

const dist = (p) => import(path.join(ROOT, 'dist', p));

export async function outboxBench({ events, deadlineMs }) {
  const [{ migrate }, { createDb }, { bootstrapIfEmpty }, { startOutboxWorker }] = await Promise.all([
    dist('db/migrate.js'),
    dist('db/client.js'),
    dist('domain/bootstrap.js'),
    dist('server/workers/outbox.js'),
  ]);
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-outbox-'));
  const file = path.join(dir, 'fos.db');
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  await migrate(file);
  const db = await createDb(file);
  const worker = { stop: async () => {} };
  try {
    const boot = await bootstrapIfEmpty(db);
    await db.prisma.webhookEndpoint.create({
      data: { team_id: boot.teamId, url: `http://127.0.0.1:${receiver.address().port}/hook`, events: ['*'], secret: 'bench-secret' },
    });
    await db.prisma.outboxEvent.createMany({
      data: Array.from({ length: events }, (_, i) => ({ team_id: boot.teamId, kind: 'package.created', payload: { n: i } })),
    });
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    const started = performance.now();
    Object.assign(worker, startOutboxWorker(db, silent, { intervalMs: 2000, allowPrivateWebhooks: true }));
    let backlog = events;
    while (performance.now() - started < deadlineMs) {
      const [ev, del] = await Promise.all([
        db.prisma.outboxEvent.count({ where: { delivered_at: null, failed_at: null } }),
        db.prisma.webhookDelivery.count({ where: { status: 'PENDING' } }),
      ]);
      backlog = ev + del;
      if (backlog === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    return { events, received, backlog, seconds, perSecond: received / seconds };
  } finally {
    await worker.stop();
    await db.close?.();
    receiver.close();
    await rm(dir, { recursive: true, force: true });
  }
}
