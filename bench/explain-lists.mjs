// Prints the query plan of every order- and fulfillment-order-list case of bench/lists.mjs and of
// the package, charge, file and product cases (bench/record-list-cases.mjs, product-list-cases.mjs), for the exact SQL and parameters Prisma sends: SQLite's
// EXPLAIN QUERY PLAN, or PostgreSQL's EXPLAIN ANALYZE (timings included) for a postgres:// url.
//   node bench/explain-lists.mjs <seeded sqlite file | postgresql url> <fulfiller team id> [orders,fulfillment,packages,charges,files,products]
// FOS_EXPLAIN_ALL=1 also prints every other statement a case runs (a list's includes), with its plan.
import Database from 'libsql';
import pg from 'pg';
import path from 'node:path';
import { FULFILLMENT_CASES, LIST_GROUPS, ORDER_CASES } from './lists.mjs';
import { productListCases } from './product-list-cases.mjs';
import { recordListCases } from './record-list-cases.mjs';
import { ROOT } from './lib.mjs';

const [file, team, groupArg] = process.argv.slice(2);
const groups = (groupArg || LIST_GROUPS).split(',');
if (!file || !team) {
  console.error('usage: node bench/explain-lists.mjs <sqlite file | postgresql url> <fulfiller team id>');
  process.exit(2);
}
const postgres = /^postgres(ql)?:/.test(file);
// Record the statements the adapter runs (SQL and bound values), without changing them.
const seen = [];
// At the Client only: a Pool runs its queries through a Client, so wrapping both saw each twice.
const origQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, ...rest) {
  if (typeof config === 'string') seen.push({ sql: config, args: Array.isArray(values) ? values : [] });
  else if (config?.text) seen.push({ sql: config.text, args: config.values ?? [] });
  return origQuery.call(this, config, values, ...rest);
};
const Stmt = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));
const sqlOf = new WeakMap(); // libSQL statements do not keep their SQL: remember it at prepare
const origPrepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql, ...rest) {
  const st = origPrepare.call(this, sql, ...rest);
  sqlOf.set(st, sql);
  return st;
};
for (const m of ['all', 'get', 'run', 'iterate']) {
  const orig = Stmt[m];
  Stmt[m] = function (...args) {
    seen.push({ sql: sqlOf.get(this) ?? '', args: args.length === 1 && Array.isArray(args[0]) ? args[0] : args });
    return orig.apply(this, args);
  };
}
const { createDb, parseDbUrl } = await import(path.join(ROOT, 'dist/db/client.js'));
const { listOrders } = await import(path.join(ROOT, 'dist/domain/orders/orders.js'));
const { listFulfillmentOrders } = await import(path.join(ROOT, 'dist/domain/fulfillment/fulfillment-orders.js'));
const db = await createDb(file);
let plan;
if (postgres) {
  const plain = new pg.Client(parseDbUrl(file).pool);
  await plain.connect();
  plan = async (s) => (await plain.query(`EXPLAIN ANALYZE ${s.sql}`, s.args)).rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n');
} else {
  const plain = new Database(file, { readonly: true });
  plan = async (s) =>
    plain
      .prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
      .all(...s.args)
      .map((row) => `  ${row.detail}`)
      .join('\n');
}
const cases = [
  ...(groups.includes('orders')
    ? ORDER_CASES.map(([name, q]) => ({ name, table: 'orders', run: () => listOrders(db, team, { page: 1, limit: 20, ...q }) }))
    : []),
  ...(groups.includes('fulfillment')
    ? FULFILLMENT_CASES.map(([name, q]) => ({
        name: `fulfillment orders: ${name}`,
        table: 'fulfillment_orders',
        run: () => listFulfillmentOrders(db, team, { page: 1, limit: 20, ...q }),
      }))
    : []),
  ...(await recordListCases(db, team)).filter((c) => groups.includes(c.group)),
  ...(groups.includes('products') ? await productListCases(db, team) : []),
];
for (const c of cases) {
  seen.length = 0;
  await c.run();
  const isList = (s) =>
    new RegExp(`FROM [\`"]?\\w*[\`"]?\\.?[\`"]?${c.table}[\`"]? `).test(s.sql) && /ORDER BY/.test(s.sql) && /LIMIT/.test(s.sql);
  const list = seen.find(isList);
  console.log(`\n## ${c.name}`);
  if (!list) {
    console.log('(query not captured)');
    continue;
  }
  console.log(await plan(list));
  if (process.env.FOS_EXPLAIN_ALL) {
    // Once each (the SQLite driver may run a statement through two of the wrapped methods).
    const key = (x) => JSON.stringify([x.sql, x.args], (_, v) => (typeof v === 'bigint' ? String(v) : v));
    const done = new Set([key(list)]);
    for (const s of seen.filter((x) => /^\s*SELECT/i.test(x.sql))) {
      if (done.has(key(s))) continue;
      done.add(key(s));
      console.log(`  -- ${s.sql.slice(0, 160)}\n${await plan(s)}`);
    }
  }
}
await db.close();
process.exit(0); // the PostgreSQL client of the plans
