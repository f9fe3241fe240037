#!/usr/bin/env node
// Makes the upgrade fixtures of test/e2e/db-upgrade.test.ts: a database as an earlier fos left
// it, with rows in every table, on SQLite (a small .db file) and PostgreSQL (a pg_dump script).
//
//   git archive <old commit> | tar -x -C /tmp/fos-old && ln -s "$PWD/node_modules" /tmp/fos-old/
//   (cd /tmp/fos-old && npm run build --silent)
//   node scripts/upgrade-fixture.mjs --old /tmp/fos-old --name <old commit> \
//        [--pg postgres://root@127.0.0.1:5432/postgres]
//
// For each database: the OLD build's `fos serve --demo --db …` migrates it with that commit's
// migrations and loads the demo warehouse through that commit's domain code (teams, keys,
// products, stock with its ledger, orders, fulfillment orders, a floor user); then every table
// still empty gets one row made from its columns (foreign keys point at existing rows; numbers
// are 0, so no ledger sum moves). Writes test/fixtures/upgrade/<name>.sqlite.db and
// <name>.postgresql.sql.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'libsql';
import pg from 'pg';

const { values: args } = parseArgs({ options: { old: { type: 'string' }, name: { type: 'string' }, pg: { type: 'string' } } });
if (!args.old || !args.name) throw new Error('usage: upgrade-fixture.mjs --old <built old tree> --name <commit> [--pg <admin url>]');
const out = path.resolve('test/fixtures/upgrade');
mkdirSync(out, { recursive: true });
const scratch = mkdtempSync(path.join(tmpdir(), 'fos-fixture-'));

/** The old build's `fos serve --demo` on `db`, stopped once it listens. */
async function oldDemo(db) {
  const env = { ...process.env, FOS_DATA_DIR: path.join(scratch, 'data'), HOME: scratch, FOS_CONFIG_DIR: path.join(scratch, 'cfg') };
  const child = spawn(process.execPath, [path.join(args.old, 'bin/fos.js'), 'serve', '--demo', '--db', db, '--port', '0'], { env });
  let err = '';
  await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (/listening on/.test(err)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`old fos serve exited ${code}: ${err}`)));
  });
  child.removeAllListeners('exit');
  await new Promise((resolve) => (child.on('exit', resolve), child.kill('SIGTERM')));
}

/** Inserts one row into each empty table, parents first; `t` describes the database. */
async function fillEmpty(t) {
  let left = (await t.tables()).filter((x) => x.rows === 0).map((x) => x.name);
  while (left.length) {
    const before = left.length;
    for (const table of [...left]) {
      const cols = await t.columns(table);
      const values = {};
      let blocked = false;
      for (const c of cols) {
        if (c.fk) {
          const ref = await t.oneValue(c.fk.table, c.fk.column);
          if (ref === undefined && c.required) blocked = true;
          if (ref !== undefined) values[c.name] = ref;
        } else if (c.required) values[c.name] = await t.valueFor(table, c);
      }
      if (blocked) continue;
      await t.insert(table, values);
      left = left.filter((x) => x !== table);
    }
    if (left.length === before) throw new Error(`cannot fill ${left.join(', ')}: their parents are empty`);
  }
}

function sqliteTarget(file) {
  const db = new Database(file);
  const virtual = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'`)
    .all()
    .map((r) => r.name);
  const skip = (n) => n.startsWith('sqlite_') || n === '_prisma_migrations' || virtual.some((v) => n === v || n.startsWith(`${v}_`));
  return {
    db,
    tables: async () =>
      db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`)
        .all()
        .filter((r) => !skip(r.name))
        .map((r) => ({ name: r.name, rows: db.prepare(`SELECT COUNT(*) AS n FROM "${r.name}"`).get().n })),
    columns: async (table) => {
      const fks = db.prepare(`PRAGMA foreign_key_list("${table}")`).all();
      return db
        .prepare(`PRAGMA table_info("${table}")`)
        .all()
        .map((c) => {
          const fk = fks.find((f) => f.from === c.name);
          return {
            name: c.name,
            type: String(c.type).toUpperCase(),
            required: (c.notnull || c.pk) && c.dflt_value === null,
            fk: fk && { table: fk.table, column: fk.to },
          };
        });
    },
    oneValue: async (table, column) => db.prepare(`SELECT "${column}" AS v FROM "${table}" LIMIT 1`).get()?.v,
    valueFor: async (table, c) =>
      /INT|REAL|FLOAT|DECIMAL|BOOL/.test(c.type)
        ? 0
        : /DATE/.test(c.type)
          ? Date.now()
          : /JSON/.test(c.type)
            ? '{}'
            : `fx-${table}-${c.name}`,
    insert: async (table, values) => {
      const keys = Object.keys(values);
      db.prepare(`INSERT INTO "${table}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(
        keys.map((k) => values[k]),
      );
    },
  };
}

function pgTarget(client) {
  const q = async (sql, params) => (await client.query(sql, params)).rows;
  return {
    tables: async () => {
      const names = await q(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
      );
      return Promise.all(names.map(async (r) => ({ name: r.name, rows: Number((await q(`SELECT COUNT(*) AS n FROM "${r.name}"`))[0].n) })));
    },
    columns: async (table) => {
      const fks = await q(
        `SELECT kcu.column_name AS "from", ccu.table_name AS "table", ccu.column_name AS "to"
           FROM information_schema.table_constraints tc
           JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
           JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
          WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public' AND tc.table_name = $1`,
        [table],
      );
      const cols = await q(
        `SELECT column_name, data_type, udt_name, is_nullable, column_default, is_generated FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
        [table],
      );
      return cols
        .filter((c) => c.is_generated !== 'ALWAYS')
        .map((c) => {
          const fk = fks.find((f) => f.from === c.column_name);
          return {
            name: c.column_name,
            type: c.data_type,
            udt: c.udt_name,
            required: c.is_nullable === 'NO' && c.column_default === null,
            fk: fk && { table: fk.table, column: fk.to },
          };
        });
    },
    oneValue: async (table, column) => (await q(`SELECT "${column}" AS v FROM "${table}" LIMIT 1`))[0]?.v,
    valueFor: async (table, c) => {
      if (c.type === 'USER-DEFINED')
        return (
          await q(
            `SELECT e.enumlabel AS v FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = $1 ORDER BY e.enumsortorder LIMIT 1`,
            [c.udt],
          )
        )[0].v;
      if (/int|numeric|double|real/.test(c.type)) return 0;
      if (/timestamp|date/.test(c.type)) return new Date();
      if (c.type === 'boolean') return false;
      if (/json/.test(c.type)) return {};
      if (c.type === 'bytea') return Buffer.alloc(0);
      return `fx-${table}-${c.name}`;
    },
    insert: async (table, values) => {
      const keys = Object.keys(values);
      await q(
        `INSERT INTO "${table}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')})`,
        keys.map((k) => values[k]),
      );
    },
  };
}

async function sqliteFixture() {
  const file = path.join(scratch, 'fixture.db');
  await oldDemo(file);
  const t = sqliteTarget(file);
  await fillEmpty(t);
  const dest = path.join(out, `${args.name}.sqlite.db`);
  rmSync(dest, { force: true });
  t.db.prepare('VACUUM INTO ?').run(dest); // compact, one file, no -wal
  t.db.close();
  const small = new Database(dest);
  small.exec('PRAGMA journal_mode = DELETE; PRAGMA page_size = 1024; VACUUM;'); // ~100 mostly empty tables and indexes: 1 KiB pages, 600 KB
  small.close();
  process.stderr.write(`wrote ${dest}\n`);
}

async function pgFixture(admin) {
  const name = `fos_fixture_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE "${name}"`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  try {
    await oldDemo(u.toString());
    const client = new pg.Client({ connectionString: u.toString() });
    await client.connect();
    await fillEmpty(pgTarget(client));
    await client.end();
    const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--inserts', u.toString()], { maxBuffer: 64 << 20 }).toString();
    // psql's meta-commands (\restrict in newer pg_dump) are not SQL: the test runs the script through pg.
    const sql = dump
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    const dest = path.join(out, `${args.name}.postgresql.sql`);
    (await import('node:fs')).writeFileSync(dest, sql);
    process.stderr.write(`wrote ${dest}\n`);
  } finally {
    await adminClient.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await adminClient.end();
  }
}

try {
  await sqliteFixture();
  if (args.pg) await pgFixture(args.pg);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
