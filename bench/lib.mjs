// Small helpers shared by the bench sections (scripts/bench.mjs runs them).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin/fos.js');

/** Sets the V8 flags `fos serve` runs under (bin/compile-cache.cjs) in a bench's server process. */
export function serveV8Flags() {
  const { setV8Flags } = createRequire(import.meta.url)('../bin/compile-cache.cjs');
  setV8Flags('client');
  setV8Flags('serve');
}

export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
export const median = (values) => percentile(values, 50);
export const ms = (n) => `${n.toFixed(1)} ms`;

/** A minimal environment for spawned CLIs (no saved profile leaks in). */
export function cleanEnv(extra = {}) {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...extra };
}

/** Spawns `node <args>` and resolves with exit code, output and wall time in ms. */
export function timedSpawn(args, { env = cleanEnv(), stdin = '' } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.end(stdin);
  });
}

/** `count` GETs of `url` by `concurrency` workers, each wanting 200: the latencies and the seconds taken. */
export async function getMany(url, token, agent, count, concurrency) {
  let next = 0;
  const latencies = [];
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const t0 = performance.now();
      const res = await request(url, { dispatcher: agent, headers: { 'x-access-token': token } });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/** VmRSS of a process in MiB (Linux), or undefined. */
export async function rssOfPid(pid) {
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const mib = (bytes) => bytes / 1024 / 1024;

/** utime + stime (ms) of a /proc stat file (Linux, clock ticks of 10 ms), or undefined elsewhere. */
async function procCpuMs(statFile) {
  try {
    const { readFile } = await import('node:fs/promises');
    const stat = await readFile(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** CPU (ms) of a process's main thread (its task whose id is the pid), or undefined where /proc is missing. */
export const mainThreadCpuMsOfPid = (pid) => procCpuMs(`/proc/${pid}/task/${pid}/stat`);

/**
 * CPU (ms) of each thread of process `pid` by thread name (/proc/<pid>/task/<tid>/comm; `main` for
 * the main thread), or by name and thread id (`node#1234`) with `byTid`.
 */
export async function threadCpuMsOfPid(pid, byTid = false) {
  const { readdir, readFile } = await import('node:fs/promises');
  const out = {};
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    let name = tid === String(pid) ? 'main' : (await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => '?')).trim();
    if (byTid) name += `#${tid}`;
    out[name] = (out[name] ?? 0) + ((await procCpuMs(`/proc/${pid}/task/${tid}/stat`)) ?? 0);
  }
  return out;
}

/** On-CPU time (ms, from ns) of one task: /proc/<pid>/task/<tid>/schedstat's first field. */
async function schedMs(pid, tid) {
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.split(' ')[0]) / 1e6;
}

/**
 * On-CPU time (ms) of process `pid`'s threads alive now and of its main thread, to the
 * nanosecond (schedstat): /proc/<pid>/stat counts 10 ms clock ticks, which over a chunk of a
 * few hundred ms moved a reading by several percent. Threads that ended are not in it, so only
 * for spans in which none does (the floor bench's chunks); falls back to the ticks elsewhere.
 */
export async function preciseCpuMsOfPid(pid) {
  const { readdir } = await import('node:fs/promises');
  const tids = await readdir(`/proc/${pid}/task`).catch(() => []);
  const main = await schedMs(pid, pid);
  if (main === undefined || (main === 0 && tids.length)) return [await cpuMsOfPid(pid), await mainThreadCpuMsOfPid(pid)];
  let all = 0;
  for (const tid of tids) all += (await schedMs(pid, tid)) ?? 0;
  return [all, main];
}

/** User + system CPU time (ms) of a process, or undefined where /proc is missing. */
export const cpuMsOfPid = (pid) => procCpuMs(`/proc/${pid}/stat`);

/**
 * CPU time (ms) this process's main thread has used, or undefined where /proc is missing. Unlike
 * event-loop utilization it does not count time the thread waited for a core on a busy machine.
 */
export const mainThreadCpuMs = () => procCpuMs(`/proc/self/task/${process.pid}/stat`);

/**
 * `fos serve` on a SQLite file or PostgreSQL URL (127.0.0.1, a free port) in its own process;
 * resolves with the child, its URL and the first-start key (when `demo`, the bootstrap key is
 * awaited too). No `db` with `demo`: the demo's own database in FOS_DATA_DIR, as `fos serve
 * --demo` runs. `logLevel` null: the server's default request log, as a user runs it.
 */
export function startServe({ db, env, demo = false, args = [], logLevel = 'warn', timeoutMs = 180_000 }) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      ...(db ? ['--db', db] : []),
      ...(demo ? ['--demo'] : []),
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      ...(logLevel ? ['--log-level', logLevel] : []),
      ...args,
    ],
    {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`fos serve did not start within ${timeoutMs} ms:\n${err}`));
    }, timeoutMs);
    child.stderr.on('data', (d) => {
      err += d;
      const key = /API key \(shown once\): (\S+)/.exec(err)?.[1];
      const url = /listening on (\S+)/.exec(err)?.[1];
      if ((key || !demo) && url) {
        clearTimeout(timer);
        resolve({ child, key, url });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fos serve exited ${code}:\n${err}`));
    });
  });
}

/** SIGTERM, and at most 5 s for it to drain and exit. */
export async function stopServe(server) {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

let profiler;
/**
 * A CPU profile of this process (node:inspector) for a bench child: 'start' starts it, a file path
 * stops it and writes it there; then tells the parent {profiled} (bench/fulfill-floor.mjs).
 */
export async function cpuProfile(to) {
  if (!profiler) {
    const { Session } = await import('node:inspector/promises');
    profiler = new Session();
    profiler.connect();
  }
  if (to === 'start') {
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.post('Profiler.start');
  } else {
    const { profile } = await profiler.post('Profiler.stop');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(to, JSON.stringify(profile));
  }
  process.send({ profiled: to });
}
