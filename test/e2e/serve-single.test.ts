import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';

// Issue 7 item 10: rate limits are counted in a server's memory on SQLite, so a second `fos serve`
// on the same file would double every key's allowance: it refuses to start (exit 5) and names the
// first; a lock left by a killed server is taken over.

const box = useServeSandbox();

const serve = (db: string, ...more: string[]) => {
  const s = spawnServe(['--db', path.join(box.dir, db), '--port', '0', ...more], box.env, box.dir);
  box.running.push(s.child);
  return s;
};

describe('one fos serve per SQLite file', () => {
  it("a second server on the same file exits 5 naming the first; another file is fine; a killed server's lock is taken over", async () => {
    const first = await serve('a.db').started;
    expect(existsSync(path.join(box.dir, 'a.db.serve.lock'))).toBe(true);

    const second = serve('a.db');
    const { code } = await second.exited;
    expect(code).toBe(5);
    expect(second.stderr()).toContain(`another fos serve (pid ${first.child.pid}, ${first.url})`);
    expect(second.stderr()).toContain('one server per SQLite file');
    expect(second.stderr()).toContain('--rate-limit-store database');
    expect(
      second
        .stderr()
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('error:')),
    ).toHaveLength(1);

    const other = await serve('b.db').started;
    other.child.kill('SIGTERM');
    await other.exited;
    expect(existsSync(path.join(box.dir, 'b.db.serve.lock'))).toBe(false); // released on a clean stop

    first.child.kill('SIGKILL'); // leaves its lock behind
    await first.exited;
    expect(existsSync(path.join(box.dir, 'a.db.serve.lock'))).toBe(true);
    const third = await serve('a.db').started;
    const res = await fetch(`${third.url}/swagger.json`);
    expect(res.status).toBe(200);
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
  }, 90_000);

  // `npm start` on a new machine: no --db, and nothing under the user's data directory yet.
  it('the first start creates the data directory (the lock file comes before the database)', async () => {
    const home = path.join(box.dir, 'fresh-home');
    expect(existsSync(home)).toBe(false);
    const s = spawnServe(['--demo', '--port', '0'], { ...box.env, HOME: home, FOS_DATA_DIR: undefined, XDG_DATA_HOME: undefined }, box.dir);
    box.running.push(s.child);
    const started = await s.started;
    // --demo without --db: the demo's own database (issue 35), never fos.db.
    expect(existsSync(path.join(home, '.local', 'share', 'fos', 'demo.db.serve.lock'))).toBe(true);
    expect(existsSync(path.join(home, '.local', 'share', 'fos', 'fos.db'))).toBe(false);
    expect((await fetch(`${started.url}/swagger.json`)).status).toBe(200);
    started.child.kill('SIGTERM');
    expect((await started.exited).code).toBe(0);
  }, 90_000);

  it('a port in use says so and suggests --port 0 (exit 5)', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    const s = serve('port.db', '--port', String(port));
    const { code } = await s.exited;
    blocker.close();
    expect(code).toBe(5);
    expect(s.stderr()).toContain(`error: port ${port} on 127.0.0.1 is in use — is another fos serve running? Use --port 0 for a free port`);
  }, 60_000);

  it('with --rate-limit-store database, several servers share one SQLite file and one count per key', async () => {
    const a = await serve('shared.db', '--rate-limit-store', 'database').started;
    const token = /API key \(shown once\): (\S+)/.exec(a.stderr())![1];
    const b = await serve('shared.db', '--rate-limit-store', 'database').started;
    expect(existsSync(path.join(box.dir, 'shared.db.serve.lock'))).toBe(false);
    const remaining = async (url: string) => {
      const res = await fetch(`${url}/me`, { headers: { 'x-access-token': token } });
      expect(res.status).toBe(200);
      return Number(res.headers.get('x-ratelimit-remaining'));
    };
    // The servers' windows are the clock's minutes (this machine's clock): the three requests are
    // compared only when they fell in one minute, else they are asked again in the next.
    const minute = () => Math.floor(Date.now() / 60_000);
    let counts: number[] = [];
    for (let tries = 0; tries < 3; tries++) {
      const before = minute();
      counts = [await remaining(a.url), await remaining(b.url), await remaining(a.url)];
      if (minute() === before) break;
      counts = [];
    }
    // one window's counter, whichever server answers
    expect(counts.length).toBe(3);
    expect([counts[0] - counts[1], counts[1] - counts[2]]).toEqual([1, 1]);
    for (const s of [a, b]) s.child.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
  }, 90_000);
});
