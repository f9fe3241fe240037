// `fos products list` spawned against a `fos serve --demo` on a temp SQLite database
// (127.0.0.1, port 0): median wall time per CLI run, and the server's RSS afterwards.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, cleanEnv, median, percentile, rssOfPid, timedSpawn } from './lib.mjs';

function startServe(dir, timeoutMs, { demo = true } = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', '--db', path.join(dir, 'fos.db'), ...(demo ? ['--demo'] : []), '--port', '0', '--host', '127.0.0.1', '--log-level', 'warn'], {
    env: cleanEnv({ FOS_CONFIG_DIR: dir, FOS_DATA_DIR: dir }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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

async function stop(server) {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

export async function roundtrip({ runs }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-serve-'));
  const started = performance.now();
  let server;
  try {
    server = await startServe(dir, 180_000);
    const serveStartMs = performance.now() - started;
    const env = cleanEnv({ FOS_BASE_URL: server.url, FOS_API_KEY: server.key, FOS_CONFIG_DIR: dir });
    const once = await timedSpawn([BIN, 'products', 'list', '--json', 'id'], { env });
    if (once.code !== 0) throw new Error(`fos products list exited ${once.code}: ${once.stderr}`);
    const times = [];
    for (let i = 0; i < runs; i++) {
      const r = await timedSpawn([BIN, 'products', 'list', '--json', 'id'], { env });
      if (r.code !== 0) throw new Error(`fos products list exited ${r.code}: ${r.stderr}`);
      times.push(r.ms);
    }
    const rss = await rssOfPid(server.child.pid);
    // Idle footprint as a warehouse sees it every day: a restart on its existing database.
    await stop(server);
    server = await startServe(dir, 180_000, { demo: false });
    await new Promise((r) => setTimeout(r, 5000));
    const idleRss = await rssOfPid(server.child.pid);
    return { median: median(times), p90: percentile(times, 90), runs, serveStartMs, serverRssMiB: rss, idleRssMiB: idleRss };
  } finally {
    if (server) await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}
