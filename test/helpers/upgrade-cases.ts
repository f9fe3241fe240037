import { copyFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'libsql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';
import { freshPostgresUrl, freshSqliteUrl, type FreshUrl } from './db.js';
import { runFos, spawnServe, useServeSandbox, type FosRun } from './serve-process.js';

// Upgrades without fear (issue 42 item 5), on one provider: a database the previous release left
// (test/fixtures/upgrade/, made by scripts/upgrade-fixture.mjs from commit f17be00, with rows in
// every table) is shown its pending migrations by `fos db migrate --dry-run` (which changes
// nothing), upgraded by a `fos serve` start, and then passes `fos db check` with every row kept;
// a broken ledger fails the check; a database a newer fos migrated is refused by serve, migrate,
// check and admin alike, naming the migration. All through the built CLI (bin/fos.js).

export const FIXTURE_COMMIT = 'f17be00';
const fixtures = path.join(packageRoot(), 'test', 'fixtures', 'upgrade');
const FUTURE = '29990101000000_from_a_newer_fos';

type Provider = 'sqlite' | 'postgresql';

/** A query runner on the database at `url` (SQLite file or PostgreSQL). */
async function open(provider: Provider, url: string) {
  if (provider === 'sqlite') {
    const conn = new Database(url.replace(/^file:/, ''));
    return {
      all: async (sql: string) => conn.prepare(sql).all() as any[],
      run: async (sql: string) => void conn.exec(sql),
      close: async () => void conn.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    all: async (sql: string) => (await client.query(sql)).rows,
    run: async (sql: string) => void (await client.query(sql)),
    close: () => client.end(),
  };
}

/** Rows per table (the fixture's own tables: not SQLite's search index shadows nor the migrations' record). */
async function tableCounts(provider: Provider, url: string): Promise<Record<string, number>> {
  const db = await open(provider, url);
  try {
    const names: string[] =
      provider === 'sqlite'
        ? (await db.all(`SELECT name, sql FROM sqlite_master WHERE type = 'table'`))
            .filter(
              (t, _, all) => !t.name.startsWith('sqlite_') && !all.some((v) => /^CREATE VIRTUAL/i.test(v.sql) && t.name.startsWith(v.name)),
            )
            .map((t) => t.name)
        : (
            await db.all(
              `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
            )
          ).map((t) => t.name);
    const counts: Record<string, number> = {};
    for (const n of names.filter((n) => n !== '_prisma_migrations').sort())
      counts[n] = Number((await db.all(`SELECT COUNT(*) AS n FROM "${n}"`))[0].n);
    return counts;
  } finally {
    await db.close();
  }
}

async function loadFixture(provider: Provider): Promise<FreshUrl> {
  if (provider === 'sqlite') {
    const fresh = await freshSqliteUrl();
    await copyFile(path.join(fixtures, `${FIXTURE_COMMIT}.sqlite.db`), fresh.url.replace(/^file:/, ''));
    return fresh;
  }
  const fresh = await freshPostgresUrl();
  const db = await open(provider, fresh.url);
  try {
    await db.run(await readFile(path.join(fixtures, `${FIXTURE_COMMIT}.postgresql.sql`), 'utf8')); // pg_dump's script, one simple query
  } finally {
    await db.close();
  }
  return fresh;
}

export function upgradeCases(provider: Provider) {
  const box = useServeSandbox();
  let fixture: FreshUrl;
  let before: Record<string, number>;
  let pendingNames: string[];
  const fos = (args: string[]) => runFos([...args, '--db', fixture.url], { env: box.env, cwd: box.dir, timeoutMs: 60_000 });
  const refused = (r: FosRun, message: RegExp) => {
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  };

  /** A failed check: its report on stdout (ok false, the failing check named), exit 8, the error as the last stderr line. */
  const checkFails = (r: FosRun, failing: RegExp) => {
    expect(r.code, r.stderr).toBe(8);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { name: string }) => c.name)).toEqual([
      expect.stringMatching(failing),
    ]);
    const lines = r.stderr.trim().split('\n');
    expect(
      lines.filter((l) => l.startsWith('error: ')),
      r.stderr,
    ).toEqual([lines.at(-1)]);
    expect(lines.at(-1)).toMatch(new RegExp(`^error: database check failed: ${failing.source}`));
    expect(r.stderr).not.toMatch(/^\s+at /m);
  };

  beforeAll(async () => {
    fixture = await loadFixture(provider);
    before = await tableCounts(provider, fixture.url);
    const db = await open(provider, fixture.url);
    const applied = new Set((await db.all('SELECT migration_name FROM "_prisma_migrations"')).map((r) => r.migration_name as string));
    await db.close();
    const all = (await readdir(path.join(packageRoot(), 'prisma', 'migrations', provider))).filter((n) => /^\d{14}_/.test(n)).sort();
    pendingNames = all.filter((n) => !applied.has(n));
  }, 120_000);
  afterAll(() => fixture?.cleanup());

  describe(`upgrading a ${provider} database made by fos ${FIXTURE_COMMIT}`, () => {
    it('the fixture has rows in every table and migrations to apply', () => {
      expect(Object.keys(before).length).toBeGreaterThan(50);
      expect(Object.entries(before).filter(([, n]) => n === 0)).toEqual([]);
      expect(pendingNames.length).toBeGreaterThan(0);
    });

    it('fos db migrate --dry-run lists them with what each does and its SQL, twice alike: it changes nothing', async () => {
      const runs = [await fos(['db', 'migrate', '--dry-run']), await fos(['db', 'migrate', '--dry-run'])];
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(0);
        const plan = JSON.parse(r.stdout);
        expect(plan.pending.map((m: { name: string }) => m.name)).toEqual(pendingNames);
        for (const m of plan.pending) {
          expect(m.sql).toBe(await readFile(path.join(packageRoot(), 'prisma', 'migrations', provider, m.name, 'migration.sql'), 'utf8'));
          expect(m.does.length).toBeGreaterThan(0);
          expect(r.stderr).toContain(`${m.name}: ${m.does[0]}`);
        }
      }
      checkFails(await fos(['db', 'check']), /migrations: every migration of this fos applied/);
    }, 120_000);

    it('a fos serve start upgrades it; fos db check passes; every row is kept', async () => {
      const s = spawnServe(['--db', fixture.url, '--port', '0'], box.env, box.dir);
      const server = box.track(await s.started);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      const check = await fos(['db', 'check']);
      expect(check.code, check.stderr).toBe(0);
      const report = JSON.parse(check.stdout);
      expect(report.ok).toBe(true);
      expect(report.checks.map((c: { name: string }) => c.name)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^ledger: /), expect.stringMatching(/^charges: /)]),
      );
      const after = await tableCounts(provider, fixture.url);
      for (const [table, n] of Object.entries(before)) expect([table, after[table]]).toEqual([table, n]);
      const dry = await fos(['db', 'migrate', '--dry-run']);
      expect(JSON.parse(dry.stdout).pending).toEqual([]);
    }, 120_000);

    it('a level that no longer equals its movements fails the check (exit 8)', async () => {
      const db = await open(provider, fixture.url);
      const [level] = await db.all('SELECT id FROM "inventory_levels" ORDER BY id LIMIT 1');
      await db.run(`UPDATE "inventory_levels" SET "on_hand" = "on_hand" + 1 WHERE id = '${level.id}'`);
      try {
        checkFails(await fos(['db', 'check']), /ledger: every level equals the sum of its movements per bucket/);
      } finally {
        await db.run(`UPDATE "inventory_levels" SET "on_hand" = "on_hand" - 1 WHERE id = '${level.id}'`);
        await db.close();
      }
    }, 120_000);

    it('a database migrated by a newer fos is refused by serve, migrate, check and admin, naming the migration', async () => {
      const db = await open(provider, fixture.url);
      const now = provider === 'sqlite' ? String(Date.now()) : 'now()';
      await db.run(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ('future', 'x', '${FUTURE}', ${now}, ${now}, 1)`,
      );
      await db.close();
      const message = new RegExp(`^error: this database was migrated by a newer fos: migration ${FUTURE} is applied but unknown to fos`);
      const s = spawnServe(['--db', fixture.url, '--port', '0'], box.env, box.dir);
      box.track(s);
      expect((await s.exited).code).toBe(8);
      expect(s.stderr().trim().split('\n')).toHaveLength(1);
      expect(s.stderr()).toMatch(message);
      for (const args of [
        ['db', 'migrate'],
        ['db', 'migrate', '--dry-run'],
        ['db', 'check'],
        ['admin', 'team', 'list'],
      ])
        refused(await fos(args), message);
    }, 120_000);
  });
}
