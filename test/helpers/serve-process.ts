// `fos serve` as a separate process (the built CLI: bin/fos.js -> dist/, so `npm run build`
// first), for tests of what only a real process shows: signals, exit codes, two servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';

export const fosBin = path.join(packageRoot(), 'bin', 'fos.js');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  /** What it wrote to stdout (its log lines). */
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A scratch directory and an environment with its own HOME and config. */
export async function serveSandbox(): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-serve-'));
  return {
    dir,
    env: {
      PATH: process.env.PATH,
      HOME: path.join(dir, 'home'),
      FOS_CONFIG_DIR: path.join(dir, 'config'),
      XDG_CONFIG_HOME: path.join(dir, 'home', '.config'),
      XDG_DATA_HOME: path.join(dir, 'home', '.local', 'share'),
      FOS_LOG_LEVEL: 'warn',
      NO_COLOR: '1',
      CI: 'true',
    },
  };
}

/**
 * A sandbox for the calling test file: made before its tests; after them, the servers it
 * `track`ed are killed and the directory removed. `dir` and `env` are set once beforeAll ran.
 */
export function useServeSandbox() {
  const box = {
    dir: '',
    env: {} as NodeJS.ProcessEnv,
    running: [] as ChildProcess[],
    track<T extends { child: ChildProcess }>(s: T): T {
      box.running.push(s.child);
      return s;
    },
  };
  beforeAll(async () => Object.assign(box, await serveSandbox()));
  afterAll(async () => {
    for (const c of box.running) if (c.exitCode === null) c.kill('SIGKILL');
    if (box.dir) await rm(box.dir, { recursive: true, force: true });
  });
  return box;
}

/** Spawns `fos serve <args>`; resolves once it prints its URL, rejects if it exits first. */
export function spawnServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): { started: Promise<ServeProcess>; child: ChildProcess; stderr: () => string; exited: ServeProcess['exited'] } {
  const child = spawn(process.execPath, [fosBin, 'serve', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const started = new Promise<ServeProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fos serve did not announce its URL in 60 s.\nstderr:\n${err}`));
    }, 60_000);
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], stderr: () => err, stdout: () => out, exited });
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`fos serve exited (${code}) before listening.\nstderr:\n${err}`));
    });
  });
  started.catch(() => {}); // a test that expects a refusal awaits `exited` instead
  return { started, child, stderr: () => err, exited };
}

export interface FosRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `fos <args>` to its end (stdin from `input`, or none); killed after `timeoutMs`.
 * Spawned commands of one test file run two at a time (the machine's cores), queued beyond:
 * each server-side command spends ~1 s of CPU loading Prisma and the driver, and eight started
 * at once on a busy machine each took over 20 s, which read as commands that never exit
 * (issue 22 item 10). A command's own time limit starts when it is spawned.
 */
const MAX_RUNNING = 2;
let running = 0;
const queue: (() => void)[] = [];
async function slot(): Promise<() => void> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => queue.push(resolve));
  running++;
  return () => {
    running--;
    queue.shift()?.();
  };
}

export async function runFos(
  args: string[],
  o: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number },
): Promise<FosRun> {
  const release = await slot();
  try {
    return await spawnFos(args, o);
  } finally {
    release();
  }
}

function spawnFos(args: string[], o: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number }): Promise<FosRun> {
  const child = spawn(process.execPath, [fosBin, ...args], {
    cwd: o.cwd,
    env: o.env,
    stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (o.input !== undefined) child.stdin!.end(o.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fos ${args.join(' ')} did not exit in ${(o.timeoutMs ?? 20_000) / 1000} s.\nstderr:\n${stderr}`));
    }, o.timeoutMs ?? 20_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
