// The fos side of the floor bench (bench/fulfill-floor.mjs), a process of its own: `fos`'s server
// (dist/) on FLOOR_DB, request logging off; with FLOOR_RECORD=<file> every request's statements
// are recorded (bench/floor-record.mjs) and written there on {dump: true}. Tells its parent
// {url, token} over IPC once listening; {stop: true} drains and exits. {profile: 'start'} starts
// a CPU profile of this process (node:inspector), {profile: <file>} writes it there.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuProfile, ROOT, serveV8Flags } from './lib.mjs';

serveV8Flags(); // as `fos serve` runs (bin/compile-cache.cjs), before the server's code is loaded

const db = process.env.FLOOR_DB;
const recordTo = process.env.FLOOR_RECORD;
let rec;
if (recordTo) {
  rec = await import('./floor-record.mjs');
  await (/^postgres/.test(db) ? rec.recordPg() : rec.recordSqlite());
}
const { startServer } = await import(pathToFileURL(path.join(ROOT, 'dist/server/serve.js')).href);
const server = await startServer({ db, host: '127.0.0.1', port: 0, logger: false });
process.send({ url: server.url, token: server.bootstrap?.token ?? null, teamId: server.bootstrap?.teamId ?? null });
process.on('message', async (m) => {
  if (m.profile) await cpuProfile(m.profile);
  if (m.dump) {
    // BigInt arguments (libSQL's 64-bit integers) as {$bigint}: JSON has none.
    await writeFile(
      recordTo,
      JSON.stringify(rec.recorded(), (_k, v) => (typeof v === 'bigint' ? { $bigint: String(v) } : v)),
    );
    process.send({ dumped: true });
  }
  if (m.stop) {
    await server.close({ drainMs: 1000 });
    process.exit(0);
  }
});
