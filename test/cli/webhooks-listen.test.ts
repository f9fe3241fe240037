// `fos webhooks listen --forward-to` through the spawned bin/fos.js (twice): a real event made
// through the API reaches a local receiver, signed so that the server's own verifySignature
// accepts it; `fos webhooks trigger` sends a sample; `fos api -i` shows the response headers.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo } from '../../src/server/demo/demo.js';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import type { TestApp } from '../helpers/app.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, ROOT, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let receiver: Server;
let hookUrl = '';
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
const SECRET = 'whsec_listen_test_secret';

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer();
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  await loadDemo(t.db);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}, 300_000);
afterAll(async () => {
  receiver?.close();
  await t?.close();
});

/** Spawns `fos webhooks listen …`; resolves once it says Ready, then when it exits. */
function listen(args: string[]) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/fos.js'), 'webhooks', 'listen', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.includes('Ready: listening')) resolve();
    });
    child.on('close', () => reject(new Error(`listen exited before it was ready: ${stderr}`)));
  });
  child.stdout.on('data', (d) => (stdout += d));
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { ready, done: done.then((code) => ({ code, stdout, stderr })), kill: () => child.kill() };
}

const adjust = () =>
  t.call('POST', '/v1/ops/inventory/adjustments', {
    body: { warehouse_id: portland, reason: 'FOUND', lines: [{ sku: 'ACME-STOVE', delta: 1 }] },
  });
let portland = '';

describe('fos webhooks listen --forward-to (spawned)', () => {
  it('forwards a real event, signed as deliveries are; the receiver verifies it (twice)', async () => {
    portland = (await t.db.prisma.warehouse.findFirstOrThrow({ where: { name: 'Portland DC' } })).id;
    for (let run = 0; run < 2; run++) {
      received.length = 0;
      const l = listen(['--forward-to', hookUrl, '--events', 'inventory.*', '--secret', SECRET, '--max-events', '1']);
      try {
        await l.ready;
        // An event of another type first: filtered out by --events.
        expect((await t.call('POST', '/v1/webhooks/events', { body: { type: 'order.created' } })).statusCode).toBe(201);
        const res = await adjust();
        expect(res.statusCode, res.body).toBe(201);
        const r = await l.done;
        expect(r.code, r.stderr).toBe(0);
        expect(received).toHaveLength(1);
        const [hit] = received;
        expect(verifySignature(SECRET, hit.body, hit.headers['fos-signature'] as string)).toBe(true);
        expect(verifySignature('whsec_other', hit.body, hit.headers['fos-signature'] as string)).toBe(false);
        const event = JSON.parse(hit.body);
        expect(event).toMatchObject({ type: 'inventory.adjusted', data: { id: res.json().id, warehouse_name: 'Portland DC' } });
        expect(hit.headers['fos-event-type']).toBe('inventory.adjusted');
        expect(hit.headers['fos-event-id']).toBe(event.id);
        const stored = await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
        expect(stored.kind).toBe('inventory.adjusted');
        expect(JSON.parse(r.stdout.trim())).toEqual(event); // printed too
        expect(r.stderr).toMatch(new RegExp(`inventory.adjusted ${event.id} -> POST ${hookUrl} \\[204\\]`));
      } finally {
        l.kill();
      }
    }
  }, 120_000);

  it('fos webhooks trigger sends a sample event that a listener gets; unknown types are refused', async () => {
    const l = listen(['--forward-to', hookUrl, '--secret', SECRET, '--max-events', '1']);
    received.length = 0;
    try {
      await l.ready;
      const trig = await spawnFos(['webhooks', 'trigger', 'package.fulfilled', '--json', 'id,type'], env);
      expect(trig.code, trig.stderr).toBe(0);
      const sent = JSON.parse(trig.stdout);
      expect(sent.type).toBe('package.fulfilled');
      expect((await l.done).code).toBe(0);
      expect(JSON.parse(received[0].body)).toMatchObject({ id: sent.id, type: 'package.fulfilled', data: { sample: true } });
      expect(verifySignature(SECRET, received[0].body, received[0].headers['fos-signature'] as string)).toBe(true);
    } finally {
      l.kill();
    }
    const bad = await spawnFos(['webhooks', 'trigger', 'order.nope'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must be one of');
  }, 120_000);

  it('fos api -i prints the status line and the response headers before the body', async () => {
    for (let run = 0; run < 2; run++) {
      const r = await spawnFos(['api', '-i', 'GET', '/me'], env);
      expect(r.code, r.stderr).toBe(0);
      const [head, body] = r.stdout.split('\n\n');
      expect(head).toMatch(/^HTTP 200\n/);
      expect(head).toMatch(/^x-ratelimit-limit: \d+$/m);
      expect(head).toMatch(/^content-type: application\/json/m);
      expect(JSON.parse(body)).toHaveProperty('team_id');
    }
  });
});
