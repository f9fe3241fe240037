// The migration runner fos used until issue 24: Prisma's schema engine (@prisma/schema-engine-wasm)
// applying prisma/migrations/<provider> exactly as `prisma migrate deploy` does. Kept only in the
// tests, as the reference the plain runner (src/db/migrate.ts) must stay compatible with: a database
// migrated by one is up to date for the other (test/unit/migrate.test.ts, test/pg/migrate.pg.test.ts).

import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SchemaEngine as SchemaEngineT } from '@prisma/schema-engine-wasm';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { parseDbUrl, pgAdapterFactory, sqliteAdapterFactory } from '../../src/db/client.js';
import Database from 'libsql';

type SchemaEngineClass = typeof SchemaEngineT;
type WasmExports = Record<string, unknown>;
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: Record<string, object>): Promise<{ instance: { exports: WasmExports } }>;
};
const FILTERS = { externalTables: [], externalEnums: [] };
// The engine arms timers it never clears (a 10 s timeout around its own advisory lock).
const engineTimers = new Set<NodeJS.Timeout>();
let engineClass: Promise<SchemaEngineClass> | undefined;

/** Loads the bundler-style wasm build without --experimental-wasm-modules. */
function loadSchemaEngine(): Promise<SchemaEngineClass> {
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

/** adapter-pg splits scripts on every ';'; PostgreSQL runs a whole script itself, as Prisma's native engine sends it. */
function wholeScripts(conn: SqlDriverAdapter) {
  const client = (conn as unknown as { client?: { query(sql: string): Promise<unknown> } }).client;
  if (typeof client?.query === 'function') conn.executeScript = async (script: string) => void (await client.query(script));
}

async function readMigrationsList(baseDir: string) {
  const names = (await readdir(baseDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && existsSync(path.join(baseDir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort();
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(path.join(baseDir, 'migration_lock.toml'), 'utf8') },
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

/** `prisma migrate deploy` of `migrationsDir` to `url` through the schema engine; returns the names it applied. */
export async function engineMigrate(url: string, migrationsDir: string): Promise<string[]> {
  const db = parseDbUrl(url);
  const factory = db.provider === 'sqlite' ? await sqliteAdapterFactory(db.file) : await pgAdapterFactory(db);
  const [SchemaEngine, { bindMigrationAwareSqlAdapterFactory }] = await Promise.all([
    loadSchemaEngine(),
    import('@prisma/driver-adapter-utils'),
  ]);
  const opened: SqlDriverAdapter[] = [];
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const c = await factory.connect();
      opened.push(c);
      if (db.provider === 'postgresql') wholeScripts(c);
      return c;
    },
    connectToShadowDb: async () => {
      const c = await factory.connectToShadowDb();
      opened.push(c);
      return c;
    },
  };
  const engine = await SchemaEngine.new(
    { datamodels: [['schema.prisma', `datasource db {\n  provider = "${db.provider}"\n}\n`]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(tracking),
  );
  try {
    const migrationsList = await readMigrationsList(migrationsDir);
    return (await engine.applyMigrations({ migrationsList, filters: FILTERS })).appliedMigrationNames;
  } finally {
    engine.free();
    await Promise.all(opened.map((c) => c.dispose().catch(() => {})));
    for (const t of engineTimers) clearTimeout(t);
    engineTimers.clear();
    // its connections (EXCLUSIVE locking mode) close without checkpointing: fold the log into the file
    if (db.provider === 'sqlite') new Database(db.file).close();
  }
}
