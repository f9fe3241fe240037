import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';
import { until } from '../helpers/until.js';

// Issue 7 item 8: SIGTERM under keep-alive load drains within a bounded time. A request whose
// headers arrive after SIGTERM gets 503 problem+json with retry-after and `connection: close`; a
// request already in flight (its body still arriving) completes; a connection that never
// finishes is cut at --drain-timeout; the process exits 0.

const box = useServeSandbox();

/**
 * Resolves once the server has read what was written to it before: one whole request on a new
 * connection answered. Bytes already on loopback connections are ready no later than that
 * request's, and the server reads everything ready before it answers.
 */
async function roundTrip(origin: string) {
  const res = await fetch(`${origin}/healthz`, { headers: { connection: 'close' } });
  await res.arrayBuffer();
}

/** Whether a new connection to the server is refused (it stopped listening: its drain began). */
function refused(origin: string): Promise<boolean> {
  const u = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname);
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

/** A raw connection: write pieces of a request, then read the whole response (until the server closes). */
function rawConnection(url: string) {
  const u = new URL(url);
  const socket = net.connect(Number(u.port), u.hostname);
  let data = '';
  socket.on('data', (d) => (data += d));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(data)));
  socket.on('error', () => {});
  return { write: (s: string) => new Promise<void>((r) => socket.write(s, () => r())), closed };
}

describe('fos serve shutdown', () => {
  it('drains: late requests get 503 problem+json + retry-after, in-flight ones complete, exit 0 promptly', async () => {
    const s = spawnServe(['--db', path.join(box.dir, 'drain.db'), '--port', '0', '--drain-timeout', '8'], box.env, box.dir);
    box.running.push(s.child);
    const server = await s.started;
    const token = /API key \(shown once\): (\S+)/.exec(server.stderr())![1];
    const origin = new URL(server.url).origin;

    // in flight: headers complete, the body still arriving
    const body = JSON.stringify({ name: 'Drain mug', sku: 'DRAIN-1', type: 'STANDARD' });
    const inflight = rawConnection(origin);
    await inflight.write(
      `POST /v1/ops/products HTTP/1.1\r\nHost: x\r\nx-access-token: ${token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    // late: a keep-alive connection whose next request's headers are not finished yet
    const late = rawConnection(origin);
    await late.write(`GET /v1/me HTTP/1.1\r\nHost: x\r\n`);
    await roundTrip(origin);

    const t0 = Date.now();
    server.child.kill('SIGTERM');
    await until(() => refused(origin), 'the server to stop listening after SIGTERM');
    await late.write(`x-access-token: ${token}\r\n\r\n`);
    await inflight.write(body.slice(5));

    const lateResponse = await late.closed;
    expect(lateResponse).toMatch(/^HTTP\/1\.1 503 /);
    expect(lateResponse).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(lateResponse).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(lateResponse).toMatch(/\r\nconnection: close\r\n/i);
    expect(lateResponse).toMatch(/\r\nx-trace-id: [0-9a-f]{16}\r\n/i);
    expect(lateResponse).toContain('"type":"urn:fos:error:unavailable"');

    const inflightResponse = await inflight.closed;
    expect(inflightResponse).toMatch(/^HTTP\/1\.1 201 /);
    expect(inflightResponse).toContain('"sku":"DRAIN-1"');

    const { code } = await server.exited;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
  }, 60_000);

  it('a connection that never finishes is cut at --drain-timeout; the process still exits 0', async () => {
    const s = spawnServe(['--db', path.join(box.dir, 'cut.db'), '--port', '0', '--drain-timeout', '2'], box.env, box.dir);
    box.running.push(s.child);
    const server = await s.started;
    const hanging = rawConnection(new URL(server.url).origin);
    await hanging.write('POST /v1/ops/products HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{');
    await roundTrip(new URL(server.url).origin);
    const t0 = Date.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    const took = Date.now() - t0;
    expect(code).toBe(0);
    expect(took).toBeGreaterThanOrEqual(1500);
    expect(took).toBeLessThan(6000);
    await hanging.closed;
  }, 60_000);
});
