import Database from 'libsql';

// Records every SQL statement the SQLite driver executes (libSQL): a prepared Statement's
// all/run, and Database#exec (BEGIN/COMMIT, scripts). Executions, not preparations: the driver
// keeps prepared statements (src/db/libsql.ts), so a statement is prepared once and run often.
// Importing this module starts noting each prepared statement's SQL, so import it before the
// app under test is built.

const sqlOf = new WeakMap<object, string>();
const dbProto = Database.prototype as unknown as { prepare(sql: string): object; exec(sql: string): unknown };
const prepare = dbProto.prepare;
dbProto.prepare = function (this: unknown, sql: string) {
  const stmt = prepare.call(this, sql);
  sqlOf.set(stmt, sql);
  return stmt;
};
const probe = new Database(':memory:');
const stmtProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { all(...a: unknown[]): unknown; run(...a: unknown[]): unknown };
probe.close();

/** The server's own once-a-second log sync (src/db/client.ts), no request's statement. */
const background = (sql: string) => sql.startsWith('PRAGMA wal_checkpoint');
/**
 * The busy timeout set to 0 around BEGIN IMMEDIATE and back (src/db/sqlite-serial.ts: the write
 * lock taken without blocking the process): connection settings, no data read or written.
 */
const setting = (sql: string) => sql.startsWith('PRAGMA busy_timeout');

/** Starts recording into `into` (all but the background log sync); returns the function that stops it. */
export function recordSqliteStatements(into: string[]): () => void {
  const { exec } = dbProto;
  const { all, run } = stmtProto;
  const note = (stmt: object) => {
    const sql = sqlOf.get(stmt) ?? '?';
    if (!background(sql)) into.push(sql);
  };
  stmtProto.all = function (this: object, ...a: unknown[]) {
    note(this);
    return all.apply(this, a);
  };
  stmtProto.run = function (this: object, ...a: unknown[]) {
    note(this);
    return run.apply(this, a);
  };
  dbProto.exec = function (this: unknown, sql: string) {
    if (!setting(sql)) into.push(sql);
    return exec.call(this, sql);
  };
  return () => {
    stmtProto.all = all;
    stmtProto.run = run;
    dbProto.exec = exec;
  };
}
