import path from 'node:path';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';

// SQLite runs with synchronous = NORMAL by default (src/db/client.ts): a commit is in the
// operating system's hands when the response is sent, so a fos serve killed outright (SIGKILL,
// no drain, no checkpoint) loses nothing it answered for. `--sqlite-sync full` is accepted, and a
// value it does not know is refused before anything starts.

const box = useServeSandbox();

async function killedAfterWrites(db: string, ...more: string[]) {
  const s = spawnServe(['--db', db, '--port', '0', ...more], box.env, box.dir);
  box.running.push(s.child);
  const server = await s.started;
  const token = /API key \(shown once\): (\S+)/.exec(server.stderr())![1];
  const names = Array.from({ length: 5 }, (_, i) => `station ${i} ${path.basename(db)}`);
  for (const name of names) {
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { 'x-access-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(res.status).toBe(201);
  }
  server.child.kill('SIGKILL');
  expect((await server.exited).signal).toBe('SIGKILL');
  const d = new Database(db, { readonly: true });
  try {
    return { names, stored: (d.prepare('SELECT name FROM api_keys').all() as Array<{ name: string }>).map((r) => r.name) };
  } finally {
    d.close();
  }
}

describe('fos serve on SQLite, killed outright', () => {
  it('keeps every write it answered for (synchronous NORMAL, the default)', async () => {
    const { names, stored } = await killedAfterWrites(path.join(box.dir, 'normal.db'));
    expect(stored).toEqual(expect.arrayContaining(names));
  }, 60_000);

  it('and with --sqlite-sync full; an unknown mode is refused', async () => {
    const { names, stored } = await killedAfterWrites(path.join(box.dir, 'full.db'), '--sqlite-sync', 'full');
    expect(stored).toEqual(expect.arrayContaining(names));
    const bad = spawnServe(['--db', path.join(box.dir, 'bad.db'), '--port', '0', '--sqlite-sync', 'sometimes'], box.env, box.dir);
    box.running.push(bad.child);
    expect((await bad.exited).code).not.toBe(0);
    expect(bad.stderr()).toMatch(/sqlite-sync/);
  }, 60_000);
});
