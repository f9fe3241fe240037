#!/usr/bin/env node
// Creates a new migration for each provider from the change in prisma/schema.prisma.
//
//   node scripts/prisma-migrations.mjs <name>     write prisma/migrations/<provider>/<timestamp>_<name>/
//   node scripts/prisma-migrations.mjs --check    exit 1 if the model has changes with no migration yet
//
// For each provider (sqlite, postgresql) the "previously migrated" model is the snapshot
// prisma/migrations/<provider>/schema.snapshot.prisma written with the last migration (empty
// when there is none). The WebAssembly schema engine diffs snapshot → current model
// (schema text to schema text: no database, no network, no Rust binary), the SQL goes to
// <timestamp>_<name>/migration.sql, migration_lock.toml is (re)written and the snapshot is
// updated. Prints "no changes" when the model did not change.
//
// Never edit a committed migration or the snapshot by hand: src/db/migrate.ts applies the
// migration folders in order, records them (with checksums) in _prisma_migrations, and refuses a
// migration whose file changed after it was applied.

import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROVIDERS, ROOT, SCHEMA_PATH, providerSchema } from './prisma-gen.mjs';

const require = createRequire(import.meta.url);
const MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'migrations');
const SNAPSHOT = 'schema.snapshot.prisma';
const FILTERS = { externalTables: [], externalEnums: [] };

/** Loads @prisma/schema-engine-wasm without --experimental-wasm-modules (development only: src/db/migrate.ts applies plain SQL). */
async function loadSchemaEngine() {
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const glue = await import(pathToFileURL(gluePath).href);
  const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return glue.SchemaEngine;
}

/**
 * An adapter factory good enough for schema-to-schema diffs. SQLite: an in-memory database.
 * PostgreSQL: the engine only asks, when it starts, whether the schema exists and the server
 * version; we answer that without a server. Any other query is a bug and fails loudly.
 */
async function offlineAdapterFactory(provider) {
  if (provider === 'sqlite') {
    const { PrismaLibSql } = await import('@prisma/adapter-libsql');
    return new PrismaLibSql({ url: ':memory:' });
  }
  const unexpected = (what) => Promise.reject(new Error(`offline diff: unexpected ${what}`));
  const conn = {
    provider: 'postgres',
    adapterName: 'fos-offline-diff',
    queryRaw(q) {
      if (/^SELECT EXISTS\(SELECT 1 FROM pg_namespace WHERE nspname = \$1\), version\(\)/.test(q.sql)) {
        return Promise.resolve({
          columnNames: ['exists', 'version', 'numeric_version'],
          columnTypes: [5 /* Boolean */, 7 /* Text */, 0 /* Int32 */],
          rows: [[true, 'PostgreSQL 15.0 (fos offline diff)', 150000]],
        });
      }
      return unexpected(`query: ${q.sql}`);
    },
    executeRaw: (q) => unexpected(`statement: ${q.sql}`),
    executeScript: () => unexpected('script'),
    startTransaction: () => unexpected('transaction'),
    getConnectionInfo: () => ({ schemaName: 'public', supportsRelationJoins: true }),
    dispose: () => Promise.resolve(),
  };
  return {
    provider: 'postgres',
    adapterName: 'fos-offline-diff',
    connect: () => Promise.resolve(conn),
    connectToShadowDb: () => Promise.resolve(conn),
  };
}

async function diff(SchemaEngine, provider, fromText, toText) {
  const { bindMigrationAwareSqlAdapterFactory } = await import('@prisma/driver-adapter-utils');
  const logs = [];
  const engine = await SchemaEngine.new(
    { datamodels: [['schema.prisma', toText]] },
    (line) => logs.push(line),
    bindMigrationAwareSqlAdapterFactory(await offlineAdapterFactory(provider)),
  );
  try {
    const res = await engine.diff({
      from: fromText === null ? { tag: 'empty' } : { tag: 'schemaDatamodel', files: [{ path: 'snapshot.prisma', content: fromText }] },
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: toText }] },
      script: true,
      exitCode: true, // → exitCode 2 when there is a difference, 0 when none
      filters: FILTERS,
    });
    if (res.exitCode === 0) return null;
    let sql = res.stdout ?? '';
    // The engine adds `CREATE SCHEMA IF NOT EXISTS "public"` to a diff from empty. Our tables are
    // unqualified and land in the connection's search_path (see ?schema= in src/db/client.ts),
    // and that statement needs CREATE on the database, so leave it out.
    sql = sql.replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n?/, '');
    return sql.trim() ? sql : null;
  } catch (err) {
    throw new Error(`${provider} diff failed: ${err instanceof Error ? err.message : err}\n${logs.join('\n')}`, { cause: err });
  } finally {
    engine.free();
  }
}

function timestamp(existing) {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  let ts = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  // keep the order strict even when two migrations are created within the same second
  const last = existing
    .map((n) => n.slice(0, 14))
    .sort()
    .at(-1);
  if (last && ts <= last) ts = String(BigInt(last) + 1n);
  return ts;
}

async function migrationDirs(dir) {
  if (!existsSync(dir)) return [];
  return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && /^\d{14}_/.test(e.name)).map((e) => e.name);
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const rawName = args.find((a) => !a.startsWith('--'));
  if (!check && !rawName) {
    console.error('usage: node scripts/prisma-migrations.mjs <name>   |   --check');
    process.exit(2);
  }
  const name = (rawName ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 200);
  if (!check && !name) throw new Error(`invalid migration name: ${rawName}`);
  const source = await readFile(SCHEMA_PATH, 'utf8');
  const SchemaEngine = await loadSchemaEngine();

  const pending = [];
  for (const provider of PROVIDERS) {
    const dir = path.join(MIGRATIONS_DIR, provider);
    const snapshotFile = path.join(dir, SNAPSHOT);
    const current = providerSchema(source, provider);
    const previous = existsSync(snapshotFile) ? await readFile(snapshotFile, 'utf8') : null;
    const sql = await diff(SchemaEngine, provider, previous, current);
    if (sql) pending.push({ provider, dir, snapshotFile, current, sql });
  }

  if (pending.length === 0) {
    console.log('no changes');
    return;
  }
  if (check) {
    console.error(
      `prisma/schema.prisma has changes with no migration (${pending.map((p) => p.provider).join(', ')}); run: npm run db:migration -- <name>`,
    );
    process.exit(1);
  }
  const existing = (await Promise.all(PROVIDERS.map((p) => migrationDirs(path.join(MIGRATIONS_DIR, p))))).flat();
  const folder = `${timestamp(existing)}_${name}`;
  for (const { provider, dir, snapshotFile, current, sql } of pending) {
    await mkdir(path.join(dir, folder), { recursive: true });
    await writeFile(path.join(dir, folder, 'migration.sql'), sql);
    await writeFile(
      path.join(dir, 'migration_lock.toml'),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider}"\n`,
    );
    await writeFile(snapshotFile, current);
    console.log(`created prisma/migrations/${provider}/${folder}/migration.sql`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
