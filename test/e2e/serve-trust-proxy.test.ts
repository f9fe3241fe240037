import path from 'node:path';
import { setTimeout as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runFos, spawnServe, useServeSandbox } from '../helpers/serve-process.js';

// Issue 23 item 1 through the binary: `fos serve` behind a TLS proxy on loopback, told so with
// $FOS_TRUST_PROXY (the same parser as --trust-proxy). The limiter of failed authentications and
// the log lines see each client's own address from X-Forwarded-For; a flooding client never locks
// out a valid key sent through the same proxy; a bad value is a one-line usage error (exit 2).

const box = useServeSandbox();

describe('fos serve behind a trusted proxy', () => {
  it('limits and logs each client by its forwarded address; a valid key from the flooding client still gets 200', async () => {
    // A fixed clock inside one window (the test hook), so no count resets at a minute boundary mid-test.
    const clock = String(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    const env = { ...box.env, FOS_LOG_LEVEL: 'info', FOS_LOG_FORMAT: 'json', FOS_TRUST_PROXY: '127.0.0.1', FOS_TEST_CLOCK_MS: clock };
    const s = box.track(
      await spawnServe(['--db', path.join(box.dir, 'proxy.db'), '--port', '0', '--unauth-rate-limit', '5'], env, box.dir).started,
    );
    const token = /API key \(shown once\): (\S+)/.exec(s.stderr())![1];
    const me = async (client: string, key: string) => {
      const res = await fetch(`${s.url}/me`, { headers: { 'x-access-token': key, 'x-forwarded-for': client } });
      return { status: res.status, trace: res.headers.get('x-trace-id')! };
    };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await me('198.51.100.7', `fos_bad${i}`)).status);
      if (i % 4 === 3) expect((await me('198.51.100.7', token)).status).toBe(200);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    const other = await me('198.51.100.8', 'fos_bad');
    expect(other.status).toBe(401); // another client of the same proxy has its own count
    // The log line of that request names the forwarded client (written just after the answer).
    const line = () =>
      s
        .stdout()
        .split('\n')
        .find((l) => l.includes(other.trace) && l.includes('remoteAddress'));
    for (let i = 0; i < 200 && !line(); i++) await tick(25);
    expect(JSON.parse(line()!).req.remoteAddress).toBe('198.51.100.8');
    expect(s.stdout()).not.toContain(token);
  }, 120_000);

  it('a bad --trust-proxy or $FOS_TRUST_PROXY is a one-line usage error', async () => {
    const db = ['--db', path.join(box.dir, 'refused.db'), '--port', '0'];
    const flag = await runFos(['serve', ...db, '--trust-proxy', 'evil.example'], { env: box.env, cwd: box.dir });
    expect(flag.code, flag.stderr).toBe(2);
    expect(flag.stderr.trim()).toMatch(/^error: --trust-proxy takes a number of hops or addresses\/CIDRs .* got "evil\.example"$/);
    const fromEnv = await runFos(['serve', ...db], { env: { ...box.env, FOS_TRUST_PROXY: '10.0.0.0/99' }, cwd: box.dir });
    expect(fromEnv.code, fromEnv.stderr).toBe(2);
    expect(fromEnv.stderr.trim()).toMatch(/^error: \$FOS_TRUST_PROXY: --trust-proxy takes .* got "10\.0\.0\.0\/99"$/);
  }, 60_000);
});
