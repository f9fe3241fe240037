// Memory that comes back (issue 23 item 6, issue 36 item 5): `fos serve --demo` on a temp SQLite
// file takes a mix of good and hostile requests (list pages, searches and product writes; missing
// / malformed / unknown well-formed keys, unknown paths, fuzzed query strings, invalid and
// unknown-field bodies, credential query parameters; whole fulfillments and webhooks, delivered to
// a loopback receiver: bench/soak-mix.mjs) from a few concurrent clients. Its RSS idle
// after the start is the baseline; 30 s after the load it must be within SOAK_RSS_FACTOR of it:
// caches and per-path state are bounded and what the load took is given back. The good requests are spread over
// five tier-4 keys, so they reach validation and the handlers instead of the rate limiter; any 5xx
// or broken connection fails the run. FOS_BENCH_SOAK_DB=<postgresql:// URL of an empty database>
// runs it on PostgreSQL instead of a temp SQLite file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanEnv, startServe, stopServe } from './lib.mjs';
import { fulfillment, prepareMix, receiver, webhookRequest } from './soak-mix.mjs';
import { generateToken } from '../dist/domain/keys/token.js';

export const SOAK_RSS_FACTOR = 1.3;
const CLIENTS = 8;
/** Of every 16 slots of the mix: 14 of request()'s kinds, one webhook request, one whole fulfillment (8 requests). */
const SLOTS = 16;
const METRICS_TOKEN = 'soak-metrics-token';

const GOOD_KEYS = 5;

const rand = (n) => Math.floor(Math.random() * n);
const junk = (len) => Array.from({ length: len }, () => String.fromCharCode(33 + rand(90))).join('');

/** The i-th request of the mix: [method, path, headers, body]. */
export function request(i, keys) {
  const good = { 'x-access-token': keys[Math.floor(i / 14) % keys.length] };
  switch (i % 14) {
    case 0:
      return ['GET', `/ops/products?limit=${1 + rand(50)}`, good];
    case 10:
      return ['POST', '/ops/products', good, JSON.stringify({ name: `Soak ${i}`, sku: `SOAK-${i}-${rand(1e9)}`, weight: rand(900) })];
    case 11:
      return ['GET', `/ops/orders/list?limit=${1 + rand(50)}`, good];
    case 12:
      return ['GET', `/ops/products?search=${encodeURIComponent(junk(3).replace(/[^A-Za-z0-9]/g, 'a'))}&limit=20`, good];
    case 13:
      return ['GET', `/ops/fulfillment-orders?limit=${1 + rand(50)}`, good];
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

export async function send(url, [method, p, headers, body]) {
  const res = await fetch(`${url}${p}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
  await res.arrayBuffer();
  return res.status;
}

/** Tier-4 keys made with the bootstrap key (3,000 requests a minute each). */
export async function goodKeys(url, key) {
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

/** VmRSS and the anonymous part of it (heap, native allocations), MiB. */
async function memoryOf(pid) {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024;
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile') };
}

/** The server's V8 heap in use and total, MiB, from its GET /metrics (prom-client's nodejs_heap_size_*). */
async function heapOf(url) {
  const res = await fetch(`${url.replace(/\/v1$/, '')}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const gauge = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1]) / 1024 / 1024;
  return { heapUsed: gauge('nodejs_heap_size_used_bytes'), heapTotal: gauge('nodejs_heap_size_total_bytes') };
}

const sample = async (server) => ({ ...(await memoryOf(server.child.pid)), ...(await heapOf(server.url)) });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Sends the k-th slot of the mix and counts each request's status; resolves with how many requests it made. */
async function slot(server, keys, mix, k, statuses) {
  const count = (status) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const round = Math.floor(k / SLOTS);
  const kind = k % SLOTS;
  if (kind === SLOTS - 1) {
    const got = await fulfillment(server.url, keys[round % keys.length], mix, round);
    got.forEach(count);
    return got.length;
  }
  const req =
    kind === SLOTS - 2 ? webhookRequest(round, { 'x-access-token': keys[round % keys.length] }) : request(round * 14 + kind, keys);
  count(await send(server.url, req).catch(() => 'error'));
  return 1;
}

/** Growth over the second half of the minute samples (the first half fills caches): last minus the half's first. */
function growthOf(samples) {
  if (samples.length < 2) return undefined;
  const from = samples[Math.floor((samples.length - 1) / 2)];
  const to = samples[samples.length - 1];
  return { fromMinute: from.minute, toMinute: to.minute, rss: to.rss - from.rss, heapUsed: to.heapUsed - from.heapUsed };
}

/**
 * `requests` requests of the mix (or, with `minutes`, the mix again and again for that long), then
 * `idleSeconds` without any; RSS and the V8 heap sampled every minute meanwhile. RSS idle after
 * the start is the baseline; RSS after the idle time must be within SOAK_RSS_FACTOR of it.
 */
export async function soakBench({ requests = 10_000, idleSeconds = 30, minutes = 0, db = process.env.FOS_BENCH_SOAK_DB } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-soak-'));
  const hooks = await receiver();
  let server;
  let timer;
  try {
    server = await startServe({
      db: db || path.join(dir, 'fos.db'),
      env: cleanEnv({ FOS_CONFIG_DIR: dir, HOME: dir }),
      demo: true,
      args: ['--allow-private-webhooks', '--metrics-token', METRICS_TOKEN],
    });
    const keys = await goodKeys(server.url, server.key);
    const mix = await prepareMix(server.url, server.key, hooks.url);
    await sleep(5000);
    const idle = await sample(server);
    const statuses = {};
    const samples = [];
    let next = 0;
    let sent = 0;
    const started = performance.now();
    const until = minutes ? started + minutes * 60_000 : Infinity;
    timer = setInterval(async () => {
      const minute = Math.round((performance.now() - started) / 60_000);
      samples.push({ minute, ...(await sample(server).catch(() => ({}))) });
    }, 60_000);
    const more = () => (minutes ? performance.now() < until : sent < requests);
    const client = async () => {
      while (more()) {
        const made = await slot(server, keys, mix, next++, statuses);
        sent += made;
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    clearInterval(timer);
    const seconds = (performance.now() - started) / 1000;
    const loaded = await sample(server);
    await sleep(idleSeconds * 1000);
    const rested = await sample(server);
    const failures = Object.entries(statuses)
      .filter(([status]) => !/^[1-4]\d\d$/.test(status))
      .reduce((n, [, count]) => n + count, 0);
    return {
      database: db ? 'postgresql' : 'sqlite',
      requests: sent,
      fulfillments: Math.floor(next / SLOTS),
      delivered: hooks.received(),
      seconds,
      idleSeconds,
      statuses,
      failures,
      idle,
      loaded,
      rested,
      samples,
      growth: growthOf(samples),
      ratio: rested.rss / idle.rss,
    };
  } finally {
    clearInterval(timer);
    if (server) await stopServe(server);
    await hooks.close();
    await rm(dir, { recursive: true, force: true });
  }
}
