// The standalone executable (dist/sea/fos, `npm run build:sea`; or $FOS_BENCH_SEA) beside
// `node bin/fos.js`: CPU (user + system), peak and own memory of `fos --version` and of
// `fos products list` against a local stub of the API (median of N spawns each, alternated), and
// the start of `fos serve --demo --port 0` (fresh data directory each: time until it prints its
// address, its CPU and peak memory then). Targets (issue 35): a command <= 1.3x the CPU and memory
// of bin/fos.js, serve's start <= 1.5x. Both get bench/usage-recorder.cjs through NODE_OPTIONS.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, median, ROOT } from './lib.mjs';

export const SEA_CPU_RSS_TARGET = 1.3;
export const SEA_SERVE_TARGET = 1.5;
export const SEA_BINARY = process.env.FOS_BENCH_SEA ? path.resolve(process.env.FOS_BENCH_SEA) : path.join(ROOT, 'dist/sea/fos');
const RECORDER = path.join(ROOT, 'bench/usage-recorder.cjs');

const FLAVOURS = {
  bin: (args) => [process.execPath, [BIN, ...args]],
  sea: (args) => [SEA_BINARY, args],
};

function run(flavour, args, env) {
  const [cmd, argv] = FLAVOURS[flavour](args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${flavour} ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** Spawns `fos serve --demo --port 0` and resolves once it prints its address: ms, CPU ms and peak KiB then. */
function serveStart(flavour, env) {
  const [cmd, argv] = FLAVOURS[flavour](['serve', '--demo', '--port', '0']);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const seen = async (d) => {
      out += d;
      if (!/listening on http/.test(out) || child.killed) return;
      const ms = performance.now() - started;
      const stat = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1].split(' ');
      const cpuMs = ((Number(stat[11]) + Number(stat[12])) * 1000) / 100; // clock ticks (USER_HZ, 100 on Linux)
      const hwmKiB = Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8'))[1]);
      child.kill();
      resolve({ ms, cpuMs, hwmKiB });
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`${flavour} serve exited ${code} before listening: ${out}`)));
  });
}

export async function seaStartup({ runs }) {
  if (!existsSync(SEA_BINARY)) return undefined;
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-sea-'));
  const api = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [{ id: 'p1', sku: 'MUG' }], meta: { page: 0, page_size: 20, total: 1 } }));
  });
  await new Promise((r) => api.listen(0, '127.0.0.1', r));
  const usage = path.join(dir, 'usage.ndjson');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir, // the binary's cache directory (~/.cache/fos) and nothing of the runner's
    NO_COLOR: '1',
    FOS_CONFIG_DIR: path.join(dir, 'config'),
    FOS_API_KEY: 'fos_bench',
    FOS_BASE_URL: `http://127.0.0.1:${api.address().port}/v1`,
    NODE_OPTIONS: `--require=${RECORDER}`,
    FOS_BENCH_USAGE: usage,
  };
  try {
    const out = { binary: SEA_BINARY };
    for (const args of [['--version'], ['products', 'list', '--json', 'id']]) {
      const samples = { bin: [], sea: [] };
      for (const f of ['bin', 'sea']) await run(f, args, { ...env, FOS_BENCH_USAGE: '' }); // caches, code caches
      for (let i = 0; i < runs; i++)
        for (const f of ['bin', 'sea']) {
          await rm(usage, { force: true });
          await run(f, args, env);
          samples[f].push(JSON.parse(await readFile(usage, 'utf8')));
        }
      out[args.join(' ')] = Object.fromEntries(
        Object.entries(samples).map(([f, s]) => [
          f,
          Object.fromEntries(['cpuMs', 'hwmKiB', 'anonKiB', 'fileKiB'].map((k) => [k, median(s.map((x) => x[k]))])),
        ]),
      );
    }
    const serve = { bin: [], sea: [] };
    for (let i = 0; i < Math.min(runs, 3); i++)
      for (const f of ['bin', 'sea']) {
        const data = await mkdtemp(path.join(dir, 'serve-'));
        serve[f].push(await serveStart(f, { ...env, FOS_BENCH_USAGE: '', NODE_OPTIONS: '', FOS_DATA_DIR: data, FOS_CONFIG_DIR: data }));
      }
    out.serve = Object.fromEntries(
      Object.entries(serve).map(([f, s]) => [f, Object.fromEntries(['ms', 'cpuMs', 'hwmKiB'].map((k) => [k, median(s.map((x) => x[k]))]))]),
    );
    return out;
  } finally {
    api.close();
    await rm(dir, { recursive: true, force: true });
  }
}
