import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox, spawnServe, type ServeProcess } from '../helpers/serve-process.js';

// Issue 7 item 10: rate limits are counted in a server's memory on SQLite, so a second `fos serve`
// on the same file would double every key's allowance: it refuses to start (exit 5) and names the
// first; a lock left by a killed server is taken over.

let dir: string;
let env: NodeJS.ProcessEnv;
const running: ServeProcess['child'][] = [];
beforeAll(async () => ({ dir, env } = await serveSandbox()));
afterAll(async () => {
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

const serve = (db: string, ...more: string[]) => {
  const s = spawnServe(['--db', path.join(dir, db), '--port', '0', ...more], env, dir);
  running.push(s.child);
  return s;
};

describe('one fos serve per SQLite file', () => {
  it('a second server on the same file exits 5 naming the first; another file is fine; a killed server\'s lock is taken over', async () => {
    const first = await serve('a.db').started;
    expect(existsSync(path.join(dir, 'a.db.serve.lock'))).toBe(true);

    const second = serve('a.db');
    const { code } = await second.exited;
    expect(code).toBe(5);
    expect(second.stderr()).toContain(`another fos serve (pid ${first.child.pid}, ${first.url})`);
    expect(second.stderr()).toContain('one server per SQLite file');
    expect(second.stderr().trim().split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);

    const other = await serve('b.db').started;
    other.child.kill('SIGTERM');
    await other.exited;
    expect(existsSync(path.join(dir, 'b.db.serve.lock'))).toBe(false); // released on a clean stop

    first.child.kill('SIGKILL'); // leaves its lock behind
    await first.exited;
    expect(existsSync(path.join(dir, 'a.db.serve.lock'))).toBe(true);
    const third = await serve('a.db').started;
    const res = await fetch(`${third.url}/swagger.json`);
    expect(res.status).toBe(200);
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
  }, 90_000);
});
