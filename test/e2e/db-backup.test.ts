import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseS3Url, S3Storage } from '../../src/domain/files/s3-storage.js';
import { runFos, spawnServe, useServeSandbox, type FosRun, type ServeProcess } from '../helpers/serve-process.js';

// Backups that restore (issue 42 item 3), through the built CLI: a live `fos serve` takes writes
// over HTTP while `fos db backup` copies its database and uploads; the archive is restored into
// an empty data directory, `fos db check` passes there, a server started on it answers with every
// write acknowledged before the backup started (and none it never made); restoring over a live or
// non-empty data directory is refused. Then `fos serve --backup-every` keeps the newest backups.

const box = useServeSandbox();
const envFor = (data: string) => ({ ...box.env, FOS_DATA_DIR: path.join(box.dir, data) });
const fos = (data: string, args: string[]) => runFos(args, { env: envFor(data), cwd: box.dir, timeoutMs: 60_000 });

interface Level {
  product_id: string;
  warehouse_id: string;
  on_hand: number;
}

let live: ServeProcess;
let token: string;

async function api<T = any>(base: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text()) as T };
}

const levels = async (base: string): Promise<Level[]> => (await api<{ data: Level[] }>(base, 'GET', '/ops/inventory?limit=100')).body.data;
const levelKey = (l: Level) => `${l.product_id}/${l.warehouse_id}`;

/** One line on stderr, nothing on stdout, the exit code given. */
function refused(r: FosRun, code: number, message: RegExp) {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(message);
}

beforeAll(async () => {
  const s = spawnServe(['--demo', '--db', path.join(box.dir, 'a', 'fos.db'), '--port', '0'], envFor('a'), box.dir);
  live = box.track(await s.started);
  token = /API key \(shown once\): (\S+)/.exec(live.stderr())![1];
}, 60_000);

describe('fos db backup of a live server, restored into an empty data directory', () => {
  const acked = new Map<string, number>(); // adjustments answered 201, per level
  let before: Map<string, number>; // of which answered before the backup started
  let initial: Map<string, number>;
  let fileId: string;
  const archive = () => path.join(box.dir, 'backup.tar.gz');

  it('copies the database and uploads while writes keep coming', async () => {
    const form = new FormData();
    form.append('file', new Blob(['sku,qty\nA,1\n']), 'counts.csv');
    const up = await fetch(`${live.url}/ops/files`, { method: 'POST', headers: { 'x-access-token': token }, body: form });
    expect(up.status).toBe(201);
    fileId = ((await up.json()) as { id: string }).id;

    const tracked = (await levels(live.url)).slice(0, 3);
    expect(tracked.length).toBe(3);
    initial = new Map(tracked.map((l) => [levelKey(l), l.on_hand]));
    let stop = false;
    let count = 0;
    const writer = async (l: Level) => {
      while (!stop) {
        const r = await api(live.url, 'POST', '/ops/inventory/adjustments', {
          warehouse_id: l.warehouse_id,
          reason: 'FOUND',
          lines: [{ product_id: l.product_id, delta: 1 }],
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        acked.set(levelKey(l), (acked.get(levelKey(l)) ?? 0) + 1);
        count++;
      }
    };
    const writers = tracked.map(writer);
    while (count < 15) await new Promise((r) => setImmediate(r)); // some writes answered first
    before = new Map(acked);
    const r = await fos('a', ['db', 'backup', archive()]); // the writers keep going meanwhile
    stop = true;
    await Promise.all(writers);
    expect(r.code, r.stderr).toBe(0);
    const manifest = JSON.parse(r.stdout);
    expect(manifest).toMatchObject({ format: 1, storage: 'local', database: 'fos.db' });
    expect(manifest.files).toBeGreaterThanOrEqual(1);
    expect(manifest.migrations.length).toBeGreaterThan(20);
  }, 120_000);

  it('restores into an empty directory; fos db check passes; a server there has what was committed before the backup', async () => {
    const r = await fos('b', ['db', 'restore', archive()]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(box.dir, 'b', 'fos.db'))).toBe(true);
    const check = await fos('b', ['db', 'check']);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true });

    const s = spawnServe(['--port', '0'], envFor('b'), box.dir);
    const restored = box.track(await s.started);
    expect(restored.stderr()).not.toMatch(/API key/); // not empty: no new bootstrap, the old key works
    const after = new Map((await levels(restored.url)).map((l) => [levelKey(l), l.on_hand]));
    for (const [key, start] of initial) {
      const got = after.get(key)!;
      expect(got).toBeGreaterThanOrEqual(start + before.get(key)!); // everything answered before the backup
      expect(got).toBeLessThanOrEqual(start + acked.get(key)!); // nothing that was never answered
    }
    const content = await fetch(`${restored.url}/ops/files/${fileId}/content`, { headers: { 'x-access-token': token } });
    expect(content.status).toBe(200);
    expect(await content.text()).toBe('sku,qty\nA,1\n');

    // Restoring over it (server running, database present) is refused: one line, exit 5.
    refused(await fos('b', ['db', 'restore', archive()]), 5, /^error: a fos serve is running on .*fos\.db \(pid \d+/);
    restored.child.kill('SIGTERM');
    await restored.exited;
    refused(await fos('b', ['db', 'restore', archive()]), 5, /fos\.db exists: restore only into an empty data directory/);
  }, 120_000);

  it('refuses what it cannot do, with one line and a documented exit code', async () => {
    // The live server of the first test is still up (if not, its output says why: CI once saw it gone).
    expect(live.child.exitCode, `${live.stderr()}\n${live.stdout().slice(-4000)}`).toBeNull();
    refused(await fos('a', ['db', 'restore', archive()]), 5, /a fos serve is running/);
    refused(await fos('a', ['db', 'backup', archive()]), 5, /exists: choose another name/);
    refused(await fos('c', ['db', 'restore', path.join(box.dir, 'nope.tar.gz')]), 4, /no backup at/);
    await writeFile(path.join(box.dir, 'junk.tar.gz'), 'not an archive');
    refused(await fos('c', ['db', 'restore', path.join(box.dir, 'junk.tar.gz')]), 2, /is not a fos backup/);
    refused(await fos('c', ['db', 'backup', path.join(box.dir, 'x.tar.gz')]), 4, /no SQLite database at/);
    refused(await fos('c', ['db', 'backup', 'x.tar.gz', '--db', 'postgres://127.0.0.1:1/none']), 2, /pg_dump/);
    const dry = await fos('c', ['db', 'migrate', '--dry-run']); // on no database: everything, and nothing made
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ provider: 'sqlite', applied: 0 });
    expect(existsSync(path.join(box.dir, 'c', 'fos.db'))).toBe(false);
  }, 120_000);
});

describe('fos serve --backup-every', () => {
  let scheduled: ServeProcess;
  afterAll(() => scheduled?.child.kill('SIGKILL'));

  it('writes backups one at a time and keeps the newest --backup-keep', async () => {
    const to = path.join(box.dir, 'kept');
    await mkdir(to);
    await writeFile(path.join(to, 'notes.txt'), 'not a backup: never pruned');
    const args = [
      '--port',
      '0',
      '--backup-every',
      '1s',
      '--backup-keep',
      '2',
      '--backup-to',
      to,
      '--log-level',
      'info',
      '--log-format',
      'json',
    ];
    const s = spawnServe(args, envFor('d'), box.dir);
    scheduled = box.track(await s.started);
    const written = () =>
      scheduled
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"backup written"'))
        .map((l) => JSON.parse(l).backup as string);
    while (written().length < 3) await new Promise((r) => setTimeout(r, 100)); // a condition, not a duration
    scheduled.child.kill('SIGTERM'); // the stop waits for a backup in progress
    expect((await scheduled.exited).code).toBe(0);
    expect(scheduled.stdout()).not.toMatch(/backup failed/);
    const names = written();
    expect(readdirSync(to).sort()).toEqual([...names.slice(-2), 'notes.txt'].sort());
    const r = await fos('e', ['db', 'restore', path.join(to, names.at(-1)!)]);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it('refuses a bad duration with one line, exit 2', async () => {
    const bad = spawnServe(['--port', '0', '--backup-every', 'often'], envFor('f'), box.dir);
    box.track(bad);
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr()).toMatch(/^error: --backup-every takes a duration such as 6h/m);
  }, 60_000);
});

describe('fos serve --backup-every to S3-compatible storage (a local s3rver)', () => {
  let s3: S3rver;
  let s3dir: string;
  let endpoint: string;
  const creds = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
  beforeAll(async () => {
    s3dir = await mkdtemp(path.join(tmpdir(), 'fos-s3rver-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3dir,
      configureBuckets: [{ name: 'fos-backups', configs: [] }],
    });
    endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
  });
  afterAll(async () => {
    await s3?.close();
    await rm(s3dir, { recursive: true, force: true });
  });

  /** A server backing up every second to `to`; resolves once `lines` log lines say `message`, then stops it. */
  async function scheduledTo(data: string, to: string, message: string, lines: number) {
    const args = [
      '--port',
      '0',
      '--backup-every',
      '1s',
      '--backup-keep',
      '2',
      '--backup-to',
      to,
      '--log-level',
      'info',
      '--log-format',
      'json',
    ];
    const s = spawnServe(args, { ...envFor(data), ...creds }, box.dir);
    const server = box.track(await s.started);
    const logged = () =>
      server
        .stdout()
        .split('\n')
        .filter((l) => l.includes(`"${message}"`))
        .map((l) => JSON.parse(l));
    while (logged().length < lines) await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(server.url)).status).toBe(200); // backups, done or failed, never stop the service
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    return logged();
  }

  it('uploads each backup to the bucket and keeps the newest two there', async () => {
    const to = `s3://fos-backups/nightly?endpoint=${endpoint}`;
    const names = (await scheduledTo('s3a', to, 'backup written', 3)).map((l) => l.backup as string);
    const bucket = new S3Storage(parseS3Url(to), creds);
    expect((await bucket.list()).sort()).toEqual(names.slice(-2).sort());
    const newest = await bucket.open(names.at(-1)!);
    const file = path.join(box.dir, 'from-s3.tar.gz');
    await writeFile(file, newest!.stream);
    const r = await fos('s3b', ['db', 'restore', file]);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it('logs a failed backup with its reason and keeps serving', async () => {
    const failed = await scheduledTo('s3c', `s3://no-such-bucket/x?endpoint=${endpoint}`, 'backup failed', 1);
    expect(failed[0].err).toMatch(/S3 PUT .* failed: HTTP 404 NoSuchBucket/);
  }, 120_000);
});
