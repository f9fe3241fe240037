import { spawn } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'libsql';
import { afterAll, describe, expect, test } from 'vitest';
import { createDb, isSerializationFailure, isUniqueViolation, parseDbUrl } from '../../src/db/client.js';
import { migrate, packageRoot } from '../../src/db/migrate.js';
import { MAX_BIND_VALUES } from '../../src/db/libsql.js';
import { AUTOCHECKPOINT_PAGES, startWalCheckpointer, WAL_SIZE_LIMIT_BYTES } from '../../src/db/wal-checkpointer.js';
import { freshSqliteUrl, migrateInProcesses, type FreshUrl } from '../helpers/db.js';
import { until } from '../helpers/until.js';

const committed = readdirSync(path.join(packageRoot(), 'prisma', 'migrations', 'sqlite'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

const fresh: FreshUrl[] = [];
async function sqliteUrl() {
  const f = await freshSqliteUrl();
  fresh.push(f);
  return f.url;
}
afterAll(async () => {
  await Promise.all(fresh.map((f) => f.cleanup()));
});

/**
 * Holds the SQLite write lock from another process; resolves once it holds it. `release()` tells the
 * child to keep the lock `ms` more milliseconds, then let go; it resolves with the child's clock
 * just before its ROLLBACK, so a write that needed the lock can only have finished after it.
 */
function holdWriteLock(file: string, ms: number): Promise<{ release: () => Promise<number> }> {
  const code = `const D=require('libsql');const d=new D(process.argv[1]);d.exec('BEGIN IMMEDIATE');
    console.log('locked');process.stdin.once('data',()=>{Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,${ms});
    console.log('releasing '+Date.now());d.exec('ROLLBACK');d.close();process.exit(0);});`;
  const child = spawn(process.execPath, ['-e', code, file], { cwd: packageRoot(), stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const release = async () => {
    child.stdin.write('go\n');
    await exited;
    const at = /releasing (\d+)/.exec(out);
    if (!at) throw new Error(`the lock holder did not report its release: ${out}`);
    return Number(at[1]);
  };
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve({ release }));
    child.once('error', reject);
  });
}

describe('SQLite database layer', () => {
  test('a query may bind as many values as libSQL takes (Prisma assumed 999 and refused more: P2029)', async () => {
    const probe = new Database(':memory:');
    const inList = (n: number) => probe.prepare(`SELECT 1 WHERE 1 IN (${Array(n).fill('?').join(',')})`).get(...Array(n).fill(1));
    expect(inList(MAX_BIND_VALUES)).toBeTruthy();
    expect(() => inList(MAX_BIND_VALUES + 1)).toThrow(/too many SQL variables/);
    probe.close();
    const url = await sqliteUrl();
    await migrate(url);
    const db = await createDb(url);
    try {
      const ids = Array.from({ length: 5000 }, (_, i) => `id-${i}`);
      // An ordered, limited page cannot be split into several queries: it must go as one.
      expect(await db.prisma.file.findMany({ where: { id: { in: ids } }, orderBy: { name: 'asc' }, take: 20 })).toEqual([]);
    } finally {
      await db.close();
    }
  });

  test('migrate applies every committed migration once, then nothing', async () => {
    expect(committed.length).toBeGreaterThan(0);
    const url = await sqliteUrl();
    expect(await migrate(url)).toEqual({ applied: committed });
    expect(await migrate(url)).toEqual({ applied: [] });
    const db = await createDb(url);
    try {
      const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name',
      );
      expect(rows.map((r) => r.migration_name)).toEqual(committed);
    } finally {
      await db.close();
    }
  });

  test('an up-to-date database migrates to nothing in a fresh process; a pending migration still applies', async () => {
    const url = await sqliteUrl();
    await migrate(url);
    // A fresh process, as `fos serve` restarting on its database.
    const code = `const m = await import(${JSON.stringify(path.join(packageRoot(), 'dist', 'db', 'migrate.js'))});
      const r = await m.migrate(process.argv[1]); console.log(JSON.stringify(r));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', code, url], {
      cwd: packageRoot(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    await new Promise((r) => child.on('exit', r));
    expect(JSON.parse(out)).toEqual({ applied: [] });

    const dir = await mkdtemp(path.join(tmpdir(), 'fos-migrations-'));
    await cp(path.join(packageRoot(), 'prisma', 'migrations', 'sqlite'), dir, { recursive: true });
    await mkdir(path.join(dir, '29991231000000_extra'));
    await writeFile(path.join(dir, '29991231000000_extra', 'migration.sql'), 'CREATE TABLE "extra_t" ("id" TEXT NOT NULL PRIMARY KEY);\n');
    try {
      expect(await migrate(url, { migrationsDir: dir })).toEqual({ applied: ['29991231000000_extra'] });
      expect(await migrate(url, { migrationsDir: dir })).toEqual({ applied: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('concurrent migrations of one empty file: one applies, the others wait and find nothing to do', async () => {
    const inProcess = await sqliteUrl();
    const results = await Promise.all([migrate(inProcess), migrate(inProcess)]);
    expect(results.map((r) => r.applied).sort((a, b) => b.length - a.length)).toEqual([committed, []]);
    // separate processes (without the lock file some of these fail with SQLITE_BUSY)
    const url = await sqliteUrl();
    const procs = await migrateInProcesses(url, 3);
    const sorted = procs.map((r) => ('applied' in r ? r.applied : r)).sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length);
    expect(sorted).toEqual([committed, [], []]);
  });

  test('synchronous NORMAL: the checkpointer syncs the log into the database file with no further write; FULL on request', async () => {
    const url = parseDbUrl(await sqliteUrl()).url.slice(5);
    await migrate(url);
    const db = await createDb(url);
    const copy = `${url}.copy`;
    try {
      // What a power cut would leave: the database file alone, without its write-ahead log.
      const teamsOnDisk = async () => {
        await cp(url, copy);
        const d = new Database(copy, { readonly: true });
        try {
          return (d.prepare('SELECT name FROM teams').all() as Array<{ name: string }>).map((r) => r.name);
        } finally {
          d.close();
          await rm(copy, { force: true });
        }
      };
      await db.prisma.team.create({ data: { name: 'Synced', kind: 'MERCHANT' } });
      // Committed, so in the log; the checkpointer thread (every second) copies it into the file
      // with no further write. Polled generously: the machine may be busy, the claim is that it
      // happens without another commit, not how fast.
      let onDisk: string[] = [];
      for (let i = 0; i < 300 && !onDisk.includes('Synced'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        onDisk = await teamsOnDisk();
      }
      expect(onDisk).toContain('Synced');
    } finally {
      await db.close();
    }
    const full = await createDb(url, { sqliteSync: 'full' });
    try {
      expect(Number(Object.values((await full.prisma.$queryRawUnsafe<Record<string, unknown>[]>('PRAGMA synchronous'))[0]!)[0])).toBe(2);
    } finally {
      await full.close();
    }
  }, 90_000);

  test('create and read through prisma; WAL, busy_timeout and foreign keys in effect', async () => {
    const dir = path.dirname(parseDbUrl(await sqliteUrl()).url.slice(5));
    const url = path.join(dir, 'nested', 'deeper', 'fos.db'); // plain path, parent dirs do not exist yet
    await migrate(url);
    const db = await createDb(url);
    try {
      expect(db.provider).toBe('sqlite');
      expect(db.url).toBe(`file:${url}`);
      const team = await db.prisma.team.create({ data: { name: 'Acme', kind: 'MERCHANT' } });
      expect(await db.prisma.team.findUnique({ where: { id: team.id } })).toMatchObject({ name: 'Acme', kind: 'MERCHANT' });

      const pragma = async (name: string) =>
        Object.values((await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`))[0]!)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(Number(await pragma('busy_timeout'))).toBe(5000);
      // The log is folded into the file by the checkpointer thread, not by the server's commits.
      expect(Number(await pragma('wal_autocheckpoint'))).toBe(AUTOCHECKPOINT_PAGES);
      expect(Number(await pragma('journal_size_limit'))).toBe(WAL_SIZE_LIMIT_BYTES);
      expect(Number(await pragma('cache_size'))).toBe(-32768); // 32 MiB
      expect(Number(await pragma('foreign_keys'))).toBe(1);
      expect(Number(await pragma('synchronous'))).toBe(1); // NORMAL (see the next test)
      // libSQL opens a new connection after each transaction begins: it gets the same settings.
      await db.prisma.$transaction(async (tx) => tx.team.count());
      expect(Number(await pragma('foreign_keys'))).toBe(1);
      expect(Number(await pragma('busy_timeout'))).toBe(5000);
      // The log is folded into the file by the checkpointer thread, not by the server's commits.
      expect(Number(await pragma('wal_autocheckpoint'))).toBe(AUTOCHECKPOINT_PAGES);
      // WAL is persistent in the file: a plain connection sees it too
      const plain = new Database(url, { readonly: true });
      expect((plain.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
      plain.close();

      // foreign keys are enforced
      await expect(
        db.prisma.fulfillmentDelegation.create({ data: { merchant_team_id: team.id, fulfiller_team_id: 'missing' } }),
      ).rejects.toMatchObject({ code: 'P2003' });

      // busy_timeout: a write waits for another process's write lock instead of failing at once
      // (checked by order of events, not by a duration: the holder lets go only after the write
      // was sent, and the write can only finish after the holder's ROLLBACK)
      const holder = await holdWriteLock(url, 300);
      const releasedAt = holder.release();
      await db.prisma.team.create({ data: { name: 'Waited', kind: 'FULFILLER' } });
      const writtenAt = Date.now();
      expect(writtenAt).toBeGreaterThanOrEqual(await releasedAt);
    } finally {
      await db.close();
    }
  });

  test('the checkpointer thread runs while the database is written, and stops when it is idle', async () => {
    const url = parseDbUrl(await sqliteUrl()).url.slice(5);
    await migrate(url);
    const conn = new Database(url);
    conn.exec('PRAGMA wal_autocheckpoint = 0; CREATE TABLE probe (x INTEGER)');
    const cp = startWalCheckpointer(url, 50, 1000, 4);
    try {
      // Nothing committed since it started: ticks pass, no thread.
      await until(() => cp.counts().ticks >= 4, 'four ticks');
      expect(cp.counts()).toMatchObject({ starts: 0, failedStarts: 0 });
      expect(cp.running()).toBe(false);
      conn.exec('INSERT INTO probe VALUES (1)');
      await until(() => cp.counts().starts === 1, 'the thread to start after a commit');
      await until(() => !cp.running(), 'the thread to stop after 4 quiet ticks');
      conn.exec('INSERT INTO probe VALUES (2)');
      await until(() => cp.counts().starts === 2, 'the thread to start again after a commit');
      expect(cp.counts().failedStarts).toBe(0);
    } finally {
      await cp.close();
      conn.close();
    }
  });

  test('a commit made as the checkpointer starts (before any tick) starts the thread', async () => {
    const url = parseDbUrl(await sqliteUrl()).url.slice(5);
    await migrate(url);
    const conn = new Database(url);
    conn.exec('PRAGMA wal_autocheckpoint = 0; CREATE TABLE probe (x INTEGER)');
    // libuv's pool held busy, as on a loaded machine: a look at the log through it (fs.stat) waits
    // until after the commit below, which it would then take for the state at start.
    const held = Array.from({ length: 16 }, () => new Promise((r) => pbkdf2('x', 'y', 100_000, 32, 'sha256', r)));
    const cp = startWalCheckpointer(url, 50, 1000, 4);
    conn.exec('INSERT INTO probe VALUES (1)'); // synchronously: before the checkpointer's first look at the log
    try {
      await Promise.all(held);
      await until(() => cp.counts().starts === 1, 'the thread to start for the commit made at start');
    } finally {
      await cp.close();
      conn.close();
    }
  });

  test('a checkpointer thread that cannot open the database is not counted as running, and close() does not wait for it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fos-cp-'));
    try {
      const file = path.join(dir, 'not-a-db');
      await mkdir(file); // a directory: the thread's connection fails to open
      await writeFile(`${file}-wal`, '');
      const cp = startWalCheckpointer(file, 50, 1000, 4);
      await until(() => cp.counts().ticks > 0, 'the first tick');
      await writeFile(`${file}-wal`, 'changed'); // looks like a commit
      await until(() => cp.counts().failedStarts > 0, 'the thread to try to start, and fail');
      expect(cp.running()).toBe(false);
      const t0 = Date.now();
      await cp.close();
      expect(Date.now() - t0).toBeLessThan(1000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('one connection for the process: transactions open no new files, values round-trip exactly', async () => {
    const url = await sqliteUrl();
    await migrate(url);
    const db = await createDb(url);
    try {
      const fds = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0);
      const before = fds();
      for (let i = 0; i < 300; i++) await db.prisma.$transaction(async (tx) => tx.team.count());
      // @libsql/client opened (and kept) a connection per transaction: 300 more descriptors here.
      expect(fds() - before).toBeLessThan(5);
      const m = await db.prisma.team.create({ data: { name: 'M', kind: 'MERCHANT' } });
      const f = await db.prisma.team.create({ data: { name: 'F', kind: 'FULFILLER' } });
      const d = await db.prisma.fulfillmentDelegation.create({ data: { merchant_team_id: m.id, fulfiller_team_id: f.id, active: false } });
      expect((await db.prisma.fulfillmentDelegation.findUniqueOrThrow({ where: { id: d.id } })).active).toBe(false);
      const [row] = await db.prisma.$queryRawUnsafe<{ big: bigint; small: number }[]>('SELECT 9007199254740993 AS big, 42 AS small');
      expect(String(row.big)).toBe('9007199254740993');
      expect(Number(row.small)).toBe(42);
    } finally {
      await db.close();
    }
  });

  test('isUniqueViolation / isSerializationFailure recognise SQLite errors', async () => {
    const url = await sqliteUrl();
    await migrate(url);
    const db = await createDb(url);
    try {
      const m = await db.prisma.team.create({ data: { name: 'M', kind: 'MERCHANT' } });
      const f = await db.prisma.team.create({ data: { name: 'F', kind: 'FULFILLER' } });
      const data = { merchant_team_id: m.id, fulfiller_team_id: f.id };
      await db.prisma.fulfillmentDelegation.create({ data });
      const dup = await db.prisma.fulfillmentDelegation.create({ data }).catch((e: unknown) => e);
      expect(dup).toMatchObject({ code: 'P2002' });
      expect(isUniqueViolation(dup)).toBe(true);
      expect(isSerializationFailure(dup)).toBe(false);
      const rawDup = await db.prisma.$executeRawUnsafe(`UPDATE teams SET id = '${m.id}' WHERE id = '${f.id}'`).catch((e: unknown) => e);
      expect(rawDup).toMatchObject({ code: 'P2010' });
      expect(isUniqueViolation(rawDup)).toBe(true);
      expect(isUniqueViolation(new Error('nope'))).toBe(false);
    } finally {
      await db.close();
    }
    // A SQLite BUSY straight from the driver, and as Prisma 7 reports it (P1008 + adapter cause)
    const file = parseDbUrl(url).url.slice(5);
    const a = new Database(file);
    const b = new Database(file, { timeout: 0 });
    a.exec('BEGIN IMMEDIATE');
    let busy: unknown;
    try {
      b.exec('BEGIN IMMEDIATE');
    } catch (e) {
      busy = e;
    } finally {
      a.exec('ROLLBACK');
      a.close();
      b.close();
    }
    expect(busy).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(isSerializationFailure(busy)).toBe(true);
    const prismaBusy = Object.assign(new Error('Operation has timed out'), {
      code: 'P1008',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: 'SQLITE_BUSY', kind: 'SocketTimeout' } } },
    });
    expect(isSerializationFailure(prismaBusy)).toBe(true);
    expect(isUniqueViolation(prismaBusy)).toBe(false);
    // The libSQL adapter's form: kind SocketTimeout, the raw code (5, or an extended BUSY code) as text.
    for (const originalCode of ['5', '517']) {
      const libsqlBusy = Object.assign(new Error('Operation has timed out'), {
        code: 'P1008',
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode, kind: 'SocketTimeout' } } },
      });
      expect(isSerializationFailure(libsqlBusy)).toBe(true);
    }
    expect(isSerializationFailure(Object.assign(new Error('x'), { cause: { originalCode: '19', kind: 'SocketTimeout' } }))).toBe(false);
  });

  test('parseDbUrl accepts paths and file: URLs, rejects :memory: and other schemes', () => {
    expect(parseDbUrl('file:/tmp/x.db')).toMatchObject({ provider: 'sqlite', file: '/tmp/x.db', url: 'file:/tmp/x.db' });
    expect(parseDbUrl('file:///tmp/x.db?mode=rwc')).toMatchObject({ file: '/tmp/x.db' });
    expect(parseDbUrl('data/x.db')).toMatchObject({ file: path.resolve('data/x.db') });
    expect(parseDbUrl('postgresql://u@h:5432/d?schema=app&connection_limit=3')).toMatchObject({
      provider: 'postgresql',
      schema: 'app',
      pool: { max: 3, connectionString: 'postgresql://u@h:5432/d', options: '-c search_path=app' },
    });
    expect(() => parseDbUrl(':memory:')).toThrow(/in-memory/);
    expect(() => parseDbUrl('mysql://h/d')).toThrow(/unsupported/);
  });
});
