// The statement recorder of the floor bench (bench/fulfill-floor.mjs), installed in the fos server's
// process before fos is loaded (bench/floor-fos.mjs). Requests arrive one at a time, so every
// statement the driver runs while a request is open belongs to that request (a background pass
// of fos's workers that falls inside one is replayed with it: the same database work either way).
// SQLite: libSQL's prepared statements (all/run/get) and exec (BEGIN/COMMIT); PostgreSQL: every
// pg Client#query. Each request keeps its statements, its status and its response body.
import http from 'node:http';

export const units = [];
let open = null;
let outside = 0;
// Statements run between requests (the workers' passes: the outbox worker marking the events the
// requests wrote as delivered) belong to the request before them: the floor runs them after
// answering it (bench/floor-server.mjs), as fos's workers ran them after that request.
const push = (s) => {
  if (open) return open.statements.push(s);
  outside++;
  units.at(-1)?.after.push(s);
};

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event !== 'request') return emit.apply(this, arguments);
  const unit = { method: req.method, url: req.url, statements: [], after: [], status: 0, body: '' };
  units.push(unit);
  open = unit;
  const end = res.end;
  res.end = function (chunk, ...rest) {
    unit.status = res.statusCode;
    if (chunk && typeof chunk !== 'function') unit.body += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (open === unit) open = null;
    return end.call(this, chunk, ...rest);
  };
  return emit.apply(this, arguments);
};

export async function recordSqlite() {
  const { default: Database } = await import('libsql');
  const sqlOf = new WeakMap();
  const proto = Database.prototype;
  const { prepare, exec } = proto;
  proto.prepare = function (sql) {
    const st = prepare.call(this, sql);
    sqlOf.set(st, sql);
    return st;
  };
  proto.exec = function (sql) {
    if (!sql.startsWith('PRAGMA')) push({ exec: sql });
    return exec.call(this, sql);
  };
  const probe = new Database(':memory:');
  const stProto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  for (const m of ['all', 'run', 'get']) {
    const orig = stProto[m];
    stProto[m] = function (...a) {
      const sql = sqlOf.get(this);
      if (sql && !sql.startsWith('PRAGMA')) push({ sql, args: a[0] ?? [] });
      return orig.apply(this, a);
    };
  }
}

export async function recordPg() {
  const pg = (await import('pg')).default;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, cb) {
    const text = typeof config === 'string' ? config : config?.text;
    const args = (typeof config === 'object' && config?.values) || (Array.isArray(values) ? values : []);
    if (text) push({ sql: text, args });
    return query.call(this, config, values, cb);
  };
}

/** The recorded requests, each with the statements run after it until the next one. */
export const recorded = () => ({ units, outside });
