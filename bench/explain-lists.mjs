// Prints the SQLite query plan (EXPLAIN QUERY PLAN) of every order-list case of bench/lists.mjs,
// for the exact SQL and parameters Prisma sends. Usage (SQLite only):
//   node bench/explain-lists.mjs <seeded sqlite file> <fulfiller team id>
import Database from 'libsql';
import path from 'node:path';
import { ORDER_CASES } from './lists.mjs';
import { ROOT } from './lib.mjs';

const [file, team] = process.argv.slice(2);
if (!file || !team) { console.error('usage: node bench/explain-lists.mjs <sqlite file> <fulfiller team id>'); process.exit(2); }
// Record the statements the adapter runs (SQL and bound values), without changing them.
const seen = [];
const Stmt = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));
const sqlOf = new WeakMap(); // libSQL statements do not keep their SQL: remember it at prepare
const origPrepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql, ...rest) { const st = origPrepare.call(this, sql, ...rest); sqlOf.set(st, sql); return st; };
for (const m of ['all', 'get', 'run', 'iterate']) {
  const orig = Stmt[m];
  Stmt[m] = function (...args) { seen.push({ sql: sqlOf.get(this) ?? '', args: args.length === 1 && Array.isArray(args[0]) ? args[0] : args }); return orig.apply(this, args); };
}
const { createDb } = await import(path.join(ROOT, 'dist/db/client.js'));
const { listOrders } = await import(path.join(ROOT, 'dist/domain/orders/orders.js'));
const db = await createDb(file);
const plain = new Database(file, { readonly: true });
for (const [name, q] of ORDER_CASES) {
  seen.length = 0;
  await listOrders(db, team, { page: 1, limit: 20, ...q });
  const list = seen.find((s) => /FROM [`"]?\w*[`"]?\.?[`"]?orders[`"]? /.test(s.sql) && /ORDER BY/.test(s.sql));
  console.log(`\n## ${name}`);
  if (!list) { console.log('(query not captured)'); continue; }
  for (const row of plain.prepare(`EXPLAIN QUERY PLAN ${list.sql}`).all(...list.args)) console.log(`  ${row.detail}`);
}
await db.close();
