// fos's fulfillment CPU beside another checkout's, paired: `node bench/ab-floor.mjs <checkout> [pairs]`
// (FOS_BENCH_PG_URL=<url> for PostgreSQL). On a busy machine single runs of `npm run bench -- floor`
// move by 10-25%, more than most changes; this runs both servers at once on copies of one seed and
// alternates them in chunks of 25 fulfillments (A B, then B A, ...), so the load moves both alike.
// <checkout> is A, the reference (built: its dist/), and seeds the database; this checkout is B and
// migrates its copy forward when it is newer. Prints each side's process and main-thread CPU per
// fulfillment, the B/A ratio of each pair and their median.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { child, databases, fulfill, seed } from './fulfill-floor.mjs';
import { median } from './lib.mjs';

const [other, pairsArg] = process.argv.slice(2);
if (!other) {
  console.error('usage: node bench/ab-floor.mjs <other checkout (built)> [pairs]');
  process.exit(2);
}
const A = path.resolve(other);
const pairs = Number(pairsArg ?? 8);
const CHUNK = 25;
const WARM = 30;
const pgUrl = process.env.FOS_BENCH_PG_URL;

const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-ab-'));
const dbs = await databases(dir, pgUrl);
const started = [];
try {
  const seeder = await child('floor-fos.mjs', { FLOOR_DB: dbs.main }, A);
  started.push(seeder);
  const { token, fos } = await seed(dbs.main, seeder.url, WARM + pairs * CHUNK);
  await started.pop().stop();
  const a = await child('floor-fos.mjs', { FLOOR_DB: await dbs.copy('a') }, A);
  const b = await child('floor-fos.mjs', { FLOOR_DB: await dbs.copy('b') });
  started.push(a, b);
  await fulfill(a.url, token, fos.slice(0, WARM), a.pid);
  await fulfill(b.url, token, fos.slice(0, WARM), b.pid);
  const sum = { a: { cpuMs: 0, mainMs: 0 }, b: { cpuMs: 0, mainMs: 0 } };
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    // Each side works through the same fulfillment orders of its own copy, in the same chunks.
    const chunk = fos.slice(WARM + i * CHUNK, WARM + (i + 1) * CHUNK);
    const run = async (side, s) => {
      const cpu = await fulfill(s.url, token, chunk, s.pid);
      sum[side].cpuMs += cpu.cpuMs;
      sum[side].mainMs += cpu.mainMs;
      return cpu.cpuMs;
    };
    const [ca, cb] = i % 2 ? [await run('b', b), await run('a', a)].reverse() : [await run('a', a), await run('b', b)];
    ratios.push(cb / ca);
  }
  const n = pairs * CHUNK;
  const line = (side, label) =>
    `  ${label}: ${(sum[side].cpuMs / n).toFixed(2)} ms a fulfillment (main thread ${(sum[side].mainMs / n).toFixed(2)} ms)`;
  console.log(`fulfillment CPU, ${pgUrl ? 'PostgreSQL' : 'SQLite'}, ${pairs} alternating pairs of ${CHUNK}:`);
  console.log(line('a', `A ${A}`));
  console.log(line('b', `B ${path.resolve('.')}`));
  console.log(`  B/A by pair: ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${median(ratios).toFixed(3)}`);
} finally {
  for (const s of started) await s.stop().catch(() => undefined);
  await dbs.drop();
  await rm(dir, { recursive: true, force: true });
}
