// Start-up time of `fos --version` and `fos --help` (median of N spawns), and which modules
// they load: neither may load the server, Prisma, Fastify or undici.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, cleanEnv, median, percentile, ROOT, timedSpawn } from './lib.mjs';

const FORBIDDEN = [
  ['server code', /\/(src|dist)\/server\//],
  ['Prisma', /[/\\]@prisma[/\\]|\/generated\//],
  ['Fastify', /[/\\]node_modules[/\\]fastify[/\\]/],
  ['undici', /[/\\]node_modules[/\\]undici[/\\]/],
];

async function loadedModules(args, dir) {
  const file = path.join(dir, `loads-${args.join('_').replace(/\W/g, '')}.txt`);
  const r = await timedSpawn(['--import', path.join(ROOT, 'bench/load-recorder.mjs'), BIN, ...args], {
    env: cleanEnv({ FOS_BENCH_LOADS: file, FOS_CONFIG_DIR: dir }),
  });
  if (r.code !== 0) throw new Error(`fos ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  const modules = [...new Set(lines.map((l) => l.replace(/^cjs:/, '').replace(/^file:\/\//, '')))];
  const hits = FORBIDDEN.flatMap(([name, re]) => (modules.some((m) => re.test(m)) ? [name] : []));
  return { count: modules.length, hits };
}

export async function startup({ runs }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-startup-'));
  try {
    const out = {};
    for (const args of [['--version'], ['--help']]) {
      await timedSpawn([BIN, ...args], { env: cleanEnv({ FOS_CONFIG_DIR: dir }) }); // warm the file cache
      const times = [];
      for (let i = 0; i < runs; i++) {
        const r = await timedSpawn([BIN, ...args], { env: cleanEnv({ FOS_CONFIG_DIR: dir }) });
        if (r.code !== 0) throw new Error(`fos ${args[0]} exited ${r.code}: ${r.stderr}`);
        times.push(r.ms);
      }
      const loads = await loadedModules(args, dir);
      out[args[0]] = { median: median(times), p90: percentile(times, 90), runs, modules: loads.count, forbidden: loads.hits };
    }
    // Baseline: a bare `node -e 0`, so the figures above can be read as fos's own cost.
    const bare = [];
    for (let i = 0; i < runs; i++) bare.push((await timedSpawn(['-e', '0'])).ms);
    out.node = { median: median(bare) };
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
