// The fair floor of the fulfillment (bench/fulfill-floor.mjs), a process of its own: a plain
// node:http server on the raw driver (libsql, or one pg client) that answers the same requests
// as fos did (FLOOR_LOG, recorded by bench/floor-record.mjs): reads the body and parses its JSON,
// authenticates the key (SHA-256 of the token, looked up in memory as fos caches it) and counts
// its rate limit, runs exactly the statements fos ran for that request (same text, arguments,
// BEGIN/COMMITs: every write, outbox event and SHIPPING charge), and answers the same status
// with the same JSON body, serialised per request; then what fos's workers ran before the next
// request (the outbox pass that marks those events delivered). Its CPU is the least this work costs here.
// {profile: 'start' | <file>} over IPC: a CPU profile of it, as bench/floor-fos.mjs takes of fos.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { cpuProfile, serveV8Flags } from './lib.mjs';

serveV8Flags(); // the V8 flags fos's side runs under (`fos serve`'s): the same runtime, only the code differs

const db = process.env.FLOOR_DB;
const { units } = JSON.parse(await readFile(process.env.FLOOR_LOG, 'utf8'), (_k, v) =>
  v && typeof v === 'object' && '$bigint' in v ? BigInt(v.$bigint) : v,
);
const keys = new Map(JSON.parse(process.env.FLOOR_KEYS).map((t) => [createHash('sha256').update(t).digest('hex'), { tier: 4 }]));
// Bodies as objects once: the floor serialises its answer per request, as a server builds one.
for (const u of units) u.reply = u.body ? JSON.parse(u.body) : null;

async function sqlite() {
  const { default: Database } = await import('libsql');
  const conn = new Database(db, { timeout: 5000 });
  const pragmas = ['journal_mode = WAL', 'foreign_keys = ON', 'synchronous = NORMAL', 'cache_size = -32768', 'busy_timeout = 5000'];
  for (const p of pragmas) conn.exec(`PRAGMA ${p}`);
  const cache = new Map();
  return async (s) => {
    if (s.exec) return conn.exec(s.exec);
    let st = cache.get(s.sql);
    if (!st) {
      st = conn.prepare(s.sql); // libSQL's Statement#reader: whether it returns rows
      cache.set(s.sql, st);
    }
    return st.reader ? st.all(s.args) : st.run(s.args);
  };
}

async function postgres() {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: db });
  await c.connect();
  return (s) => c.query(s.sql, s.args);
}

const run = await (/^postgres/.test(db) ? postgres() : sqlite());
const hits = new Map();
let next = 0;
let failed = 0;
const errors = [];
let lane = Promise.resolve();
const runAll = async (statements) => {
  for (const s of statements) {
    try {
      await run(s);
    } catch (err) {
      if (++failed <= 3) errors.push(`${err.message}: ${(s.sql ?? s.exec).slice(0, 160)}`);
    }
  }
};

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
    const hash = createHash('sha256')
      .update(String(req.headers['x-access-token'] ?? ''))
      .digest('hex');
    const key = keys.get(hash);
    const unit = units[next++];
    if (!key || !unit || unit.method !== req.method || unit.url !== req.url || (body === undefined && unit.method === 'POST')) {
      res.writeHead(409).end(JSON.stringify({ detail: `unexpected ${req.method} ${req.url}` }));
      return;
    }
    const count = (hits.get(hash) ?? 0) + 1;
    hits.set(hash, count);
    await (lane = lane.then(() => runAll(unit.statements)));
    const text = unit.reply === null ? '' : JSON.stringify(unit.reply);
    res.writeHead(unit.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'x-ratelimit-limit': 3000,
      'x-ratelimit-remaining': Math.max(0, 3000 - count),
      'x-ratelimit-reset': 60,
    });
    res.end(text);
    // What fos's workers ran after this request (the outbox pass), after the answer as there; the
    // next request's statements wait for it (one connection, one transaction at a time).
    if (unit.after?.length) lane = lane.then(() => runAll(unit.after));
  });
});
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}/v1` }));
process.on('message', (m) => {
  if (m.profile) cpuProfile(m.profile);
  if (m.stop) {
    process.send({ failed, errors, served: next });
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});
