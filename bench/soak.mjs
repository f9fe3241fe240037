// Memory under hostile load (issue 23 item 6): `fos serve --demo` on a temp SQLite file takes a
// mix of good and hostile requests (valid reads, missing / malformed / unknown well-formed keys,
// unknown paths, fuzzed query strings, invalid and unknown-field bodies, credential query
// parameters) from a few concurrent clients. Its RSS after the first 1,000 requests is the
// baseline; after all of them it must stay within SOAK_RSS_FACTOR of it: caches and per-path
// state are bounded, so hostile traffic cannot grow the process. The good requests are spread over
// five tier-4 keys, so they reach validation and the handlers instead of the rate limiter; any 5xx
// or broken connection fails the run. FOS_BENCH_SOAK_DB=<postgresql:// URL of an empty database>
// runs it on PostgreSQL instead of a temp SQLite file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanEnv, rssOfPid, startServe, stopServe } from './lib.mjs';
import { generateToken } from '../dist/domain/keys/token.js';

export const SOAK_RSS_FACTOR = 1.5;
const BASELINE_AFTER = 1000;
const CLIENTS = 8;

const GOOD_KEYS = 5;

const rand = (n) => Math.floor(Math.random() * n);
const junk = (len) => Array.from({ length: len }, () => String.fromCharCode(33 + rand(90))).join('');

/** The i-th request of the mix: [method, path, headers, body]. */
function request(i, keys) {
  const good = { 'x-access-token': keys[Math.floor(i / 10) % keys.length] };
  switch (i % 10) {
    case 0:
      return ['GET', `/ops/products?limit=${1 + rand(50)}`, good];
    case 1:
      return ['GET', '/me', { 'x-access-token': generateToken() }]; // well-formed, unknown
    case 2:
      return ['GET', '/me', { 'x-access-token': `fos_${junk(32)}` }]; // malformed
    case 3:
      return ['GET', `/ops/${encodeURIComponent(junk(8))}/${rand(1e9)}`, good]; // unknown path
    case 4:
      return ['GET', `/ops/orders?${encodeURIComponent(junk(6))}=${encodeURIComponent(junk(20))}&status=${junk(4)}`, good];
    case 5:
      return [
        'POST',
        '/ops/inventory/adjustments',
        good,
        JSON.stringify({ warehouse_id: junk(10), reason: 'FOUND', lines: [{ sku: junk(12), delta: rand(5) + 1 }], [junk(5)]: 1 }),
      ];
    case 6:
      return ['GET', `/ops/products/${rand(1e12)}`, good];
    case 7:
      return ['GET', `/me?token[]=${junk(16)}`, {}];
    case 8:
      return ['POST', '/ops/products', good, `{"name":${JSON.stringify(junk(30))},"sku":`]; // broken JSON
    default:
      return ['GET', `/ops/inventory?sku=${encodeURIComponent(junk(10))}`, good];
  }
}

async function send(url, [method, p, headers, body]) {
  const res = await fetch(`${url}${p}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
  await res.arrayBuffer();
  return res.status;
}

/** Tier-4 keys made with the bootstrap key (3,000 requests a minute each). */
async function goodKeys(url, key) {
  const keys = [key];
  for (let i = 1; i < GOOD_KEYS; i++) {
    const res = await fetch(`${url}/keys`, {
      method: 'POST',
      headers: { 'x-access-token': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `soak ${i}`, power_role: 'ADMIN', rate_tier: 4 }),
    });
    if (res.status !== 201) throw new Error(`soak: creating a key answered ${res.status}: ${await res.text()}`);
    keys.push((await res.json()).token);
  }
  return keys;
}

export async function soakBench({ requests = 20_000, db = process.env.FOS_BENCH_SOAK_DB } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-soak-'));
  let server;
  try {
    server = await startServe({ db: db || path.join(dir, 'fos.db'), env: cleanEnv({ FOS_CONFIG_DIR: dir, HOME: dir }), demo: true });
    const keys = await goodKeys(server.url, server.key);
    const statuses = {};
    let next = 0;
    let baseline;
    const started = performance.now();
    const client = async () => {
      while (next < requests) {
        const i = next++;
        const status = await send(server.url, request(i, keys)).catch(() => 'error');
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (i === BASELINE_AFTER - 1) baseline = await rssOfPid(server.child.pid);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const seconds = (performance.now() - started) / 1000;
    const final = await rssOfPid(server.child.pid);
    const failures = Object.entries(statuses)
      .filter(([status]) => !/^[1-4]\d\d$/.test(status))
      .reduce((n, [, count]) => n + count, 0);
    return {
      database: db ? 'postgresql' : 'sqlite',
      requests,
      seconds,
      statuses,
      failures,
      baselineRssMiB: baseline,
      finalRssMiB: final,
      ratio: final / baseline,
    };
  } finally {
    if (server) await stopServe(server);
    await rm(dir, { recursive: true, force: true });
  }
}
