// Applies the committed migrations (prisma/migrations/<provider>/<timestamp>_<name>/migration.sql)
// to a database, like `prisma migrate deploy`, but offline: through @prisma/schema-engine-wasm and
// a driver adapter instead of the Prisma CLI and its downloaded Rust binary. Applied migrations
// are recorded in `_prisma_migrations`; a second run applies nothing. Migrations are created
// with `npm run db:migration -- <name>` (scripts/prisma-migrations.mjs).
//
// Concurrency: several processes may start at once against one empty database; without a lock
// two schema engines would both see no `_prisma_migrations` and both try to create the tables.
// So the whole check-and-apply runs under a lock held by a connection of its own:
//  - PostgreSQL: a session-level advisory lock, pg_advisory_lock(MIGRATION_LOCK_KEY), taken by a
//    plain `pg` client (not the adapter's pool, whose connections change from query to query).
//    Advisory locks are per database, so separate databases on one server do not wait on each
//    other; the lock is released on unlock or when the session ends (a crashed process cannot
//    leave it held).
//  - SQLite: an IMMEDIATE transaction (a RESERVED lock) on a companion file `<db file>.migrate-lock`,
//    polled without blocking the event loop. A separate file because a lock on the database
//    itself would block the schema engine's own connection. The OS drops the lock with the
//    process; the (empty) lock file stays next to the database and is harmless.
//    Note: the engine applies SQLite migrations in EXCLUSIVE locking mode (as `prisma migrate
//    deploy` does), so applying one fails with SQLITE_BUSY while another process has the file
//    open; checking (nothing to apply) works alongside a running server. So: migrate() before
//    createDb(), and stop running servers before upgrading a SQLite database.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SchemaEngine as SchemaEngineT } from '@prisma/schema-engine-wasm';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { parseDbUrl, pgAdapterFactory, sqliteAdapterFactory, SQLITE_BUSY_TIMEOUT_MS, type DbTarget } from './client.js';
import type { Db, Provider } from './types.js';

/** pg_advisory_lock key for migrations (arbitrary constant: "fos" + "mig"). */
export const MIGRATION_LOCK_KEY = 0x666f736d6967n;
/** How long a second migrator waits for the first before giving up. */
const LOCK_WAIT_MS = 5 * 60_000;
const FILTERS = { externalTables: [], externalEnums: [] };

export interface MigrateOptions {
  /** Folder holding <timestamp>_<name>/migration.sql; default <package root>/prisma/migrations/<provider>. */
  migrationsDir?: string;
  /** Receives the schema engine's log lines. */
  log?: (line: string) => void;
}

/** Applies the pending migrations; returns the names of those it applied (empty when up to date). */
export async function migrate(target: Db | string, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const db = parseDbUrl(typeof target === 'string' ? target : target.url);
  const dir = opts.migrationsDir ?? path.join(packageRoot(), 'prisma', 'migrations', db.provider);
  const migrationsList = await readMigrations(dir, db.provider);
  // The usual start: nothing to apply. Checking that by a read keeps the schema engine (its
  // WebAssembly, ~40 MiB a server would hold on to) out of the process.
  if (await upToDate(db, migrationsList.migrationDirectories)) return { applied: [] };
  const release = db.provider === 'sqlite' ? await lockSqlite(db.file) : await lockPostgres(db);
  try {
    const factory = db.provider === 'sqlite' ? await sqliteAdapterFactory(db.file) : await pgAdapterFactory(db);
    const applied = await withSchemaEngine(db.provider, factory, opts.log, (engine) =>
      engine.applyMigrations({ migrationsList, filters: FILTERS }),
    );
    if (db.provider === 'sqlite') (await import('./libsql.js')).checkpoint(db.file, SQLITE_BUSY_TIMEOUT_MS);
    return { applied: applied.appliedMigrationNames };
  } finally {
    await release();
  }
}

// ---------- migrations folder ----------

/** The folder with this package's package.json: works from src/ (tests) and from dist/. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'fos') return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package root (package.json of fos) not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

async function readMigrations(baseDir: string, provider: Provider) {
  if (!existsSync(baseDir)) throw new Error(`no migrations for ${provider}: ${baseDir} does not exist`);
  const names = (await readdir(baseDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && existsSync(path.join(baseDir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(path.join(baseDir, name, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

type MigrationDirs = Awaited<ReturnType<typeof readMigrations>>['migrationDirectories'];

/**
 * True when `_prisma_migrations` records every migration of the folder as applied (finished, not
 * rolled back, same checksum: the SHA-256 of its SQL, as the engine records it) and nothing else.
 * Any doubt (no database yet, no table, an unknown or changed migration) is false: the engine decides.
 */
async function upToDate(db: DbTarget, dirs: MigrationDirs): Promise<boolean> {
  const expected = new Map(dirs.map((d) => [d.path, createHash('sha256').update(d.migrationFile.content.value).digest('hex')]));
  const sql = 'SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';
  let rows: { migration_name: string; checksum: string }[];
  try {
    if (db.provider === 'sqlite') {
      if (!existsSync(db.file)) return false;
      const { default: Database } = await import('libsql');
      const conn = new Database(db.file, { readonly: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
      try {
        rows = conn.prepare(sql).all() as typeof rows;
      } finally {
        conn.close();
      }
    } else {
      const client = await pgSession(db, 'fos-migrate-check');
      try {
        rows = (await client.query(sql.replace('_prisma_migrations', `"${db.schema ?? 'public'}"._prisma_migrations`))).rows;
      } finally {
        await client.end().catch(() => {});
      }
    }
  } catch {
    return false;
  }
  return rows.length === expected.size && rows.every((r) => expected.get(r.migration_name) === r.checksum);
}

// ---------- the WebAssembly schema engine ----------

type SchemaEngineClass = typeof SchemaEngineT;
// Node has WebAssembly, but neither lib ES2023 nor @types/node 20 declare it: the bit we use.
type WasmExports = Record<string, unknown>;
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: Record<string, object>): Promise<{ instance: { exports: WasmExports } }>;
};
let engineClass: Promise<SchemaEngineClass> | undefined;
/** Whether this process has loaded the schema engine (a server that found nothing to apply has not). */
export const schemaEngineLoaded = () => engineClass !== undefined;

// The engine arms timers (e.g. a 10 s timeout around its own pg_advisory_lock(72707369)) and never
// clears them, which would keep a process alive for 10 s after migrate() returned. Its timers go
// through our setTimeout below; once no engine call is running, the leftovers are cleared.
const engineTimers = new Set<NodeJS.Timeout>();
let engineCallsRunning = 0;

/**
 * Loads @prisma/schema-engine-wasm without `--experimental-wasm-modules`. Its entry point does
 * `import * as wasm from "./schema_engine_bg.wasm"` (bundler style); we do what that glue does:
 * instantiate the .wasm with the JS half (schema_engine_bg.js) as its import object, hand the
 * instance back to it, and run the start function.
 */
export function loadSchemaEngine(): Promise<SchemaEngineClass> {
  return (engineClass ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = (await import(pathToFileURL(gluePath).href)) as Record<string, unknown> & {
      __wbg_set_wasm(exports: WasmExports): void;
      SchemaEngine: SchemaEngineClass;
    };
    const imports: Record<string, unknown> = { ...glue };
    for (const name of Object.keys(glue).filter((k) => k.startsWith('__wbg_setTimeout_'))) {
      imports[name] = (callback: () => void, ms: number) => {
        const timer = setTimeout(() => {
          engineTimers.delete(timer);
          callback();
        }, ms >>> 0);
        engineTimers.add(timer);
        return timer;
      };
    }
    const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': imports });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })());
}

/**
 * @prisma/adapter-pg's executeScript splits a migration on every ';', inside comments and
 * dollar-quoted function bodies too. PostgreSQL runs a script of several statements itself (the
 * simple query protocol, one implicit transaction), as Prisma's native engine sends it, so the
 * whole migration goes in one query on the adapter's pool.
 */
function wholeScripts(conn: SqlDriverAdapter) {
  const adapter = conn as unknown as { client?: { query(sql: string): Promise<unknown> }; onError?(err: unknown): never };
  const client = adapter.client;
  if (typeof client?.query !== 'function') return;
  conn.executeScript = async (script: string) => {
    try {
      await client.query(script);
    } catch (err) {
      if (adapter.onError) adapter.onError.call(conn, err);
      throw err;
    }
  };
}

async function withSchemaEngine<T>(
  provider: Provider,
  factory: SqlMigrationAwareDriverAdapterFactory,
  log: ((line: string) => void) | undefined,
  fn: (engine: SchemaEngineT) => Promise<T>,
): Promise<T> {
  const [SchemaEngine, { bindMigrationAwareSqlAdapterFactory }] = await Promise.all([
    loadSchemaEngine(),
    import('@prisma/driver-adapter-utils'),
  ]);
  // Remember every connection the engine opens so they can be closed afterwards (the engine
  // does not dispose them itself).
  const opened: SqlDriverAdapter[] = [];
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const c = await factory.connect();
      opened.push(c);
      if (provider === 'postgresql') wholeScripts(c);
      return c;
    },
    connectToShadowDb: async () => {
      const c = await factory.connectToShadowDb();
      opened.push(c);
      return c;
    },
  };
  const lines: string[] = [];
  engineCallsRunning++;
  let engine: SchemaEngineT | undefined;
  try {
    engine = await SchemaEngine.new(
      { datamodels: [['schema.prisma', `datasource db {\n  provider = "${provider}"\n}\n`]] },
      (line: string) => {
        lines.push(line);
        log?.(line);
      },
      bindMigrationAwareSqlAdapterFactory(tracking),
    );
    return await fn(engine);
  } catch (err) {
    let msg = err instanceof Error ? err.message : String(err);
    if (provider === 'sqlite' && /unknown variant `SocketTimeout`/.test(msg)) {
      // The adapter reports SQLITE_BUSY as kind SocketTimeout, which this engine cannot decode.
      // The engine applies SQLite migrations in EXCLUSIVE locking mode (like `prisma migrate
      // deploy`): a migration that changes the schema needs every other connection closed.
      msg = `the SQLite database is locked (SQLITE_BUSY): another process has it open (a running fos server?); stop it and migrate again. (${msg.split('\n')[0]})`;
    }
    throw new Error(`migration failed (${provider}): ${msg}${lines.length ? `\n${lines.slice(-20).join('\n')}` : ''}`, {
      cause: err,
    });
  } finally {
    engine?.free();
    await Promise.all(opened.map((c) => c.dispose().catch(() => {})));
    if (--engineCallsRunning === 0) {
      for (const t of engineTimers) clearTimeout(t);
      engineTimers.clear();
    }
  }
}

// ---------- locks ----------

/** One plain pg session outside Prisma's pool; a dropped one just ends (and releases any advisory lock). */
async function pgSession(db: Extract<DbTarget, { provider: 'postgresql' }>, applicationName: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ ...db.pool, application_name: applicationName });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function lockPostgres(db: Extract<DbTarget, { provider: 'postgresql' }>): Promise<() => Promise<void>> {
  const client = await pgSession(db, 'fos-migrate');
  try {
    await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    if (db.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${db.schema}"`);
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return async () => {
    try {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    } finally {
      await client.end().catch(() => {});
    }
  };
}

async function lockSqlite(file: string): Promise<() => Promise<void>> {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(path.dirname(file), { recursive: true });
  const { default: Database } = await import('libsql');
  const lock = new Database(`${file}.migrate-lock`, { timeout: 0 });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    try {
      lock.exec('BEGIN IMMEDIATE');
      break;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) {
        lock.close();
        throw err;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  try {
    // WAL is a property of the database file: switch it once, while nobody else migrates.
    const main = new Database(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    try {
      main.pragma('journal_mode = WAL');
    } finally {
      main.close();
    }
  } catch (err) {
    lock.close();
    throw err;
  }
  return async () => {
    try {
      lock.exec('ROLLBACK');
    } finally {
      lock.close();
    }
  };
}
