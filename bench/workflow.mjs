// The load side of the API bench: an undici client, a bounded worker pool, and the fulfillment
// workflow (accept, lock, read, package, label, fulfill). The workflow runs in a worker thread
// (runWorkflowsInWorker), as separate clients would: the server's thread then does only the
// server's work, and its busy time per workflow is what one server process can sustain.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { median, percentile } from './lib.mjs';

export function client(base, token, agent) {
  return async (method, p, body, expectStatus = [200, 201]) => {
    const started = performance.now();
    const res = await request(`${base}${p}`, {
      method,
      dispatcher: agent,
      headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.body.text();
    const elapsed = performance.now() - started;
    if (!expectStatus.includes(res.statusCode)) throw new Error(`${method} ${p}: ${res.statusCode} ${text.slice(0, 300)}`);
    return { data: text ? JSON.parse(text) : undefined, ms: elapsed };
  };
}

/** Runs `fn(i)` for i < count with `concurrency` workers, stopping early after `deadlineMs`. */
export async function load(count, concurrency, deadlineMs, fn) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count && performance.now() - started < deadlineMs) {
      const i = next++;
      const t0 = performance.now();
      await fn(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    done: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: median(latencies),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

/** One fulfillment order from PENDING to FULFILLED through six requests. */
export async function fulfillOne(api, id, i) {
  const owner = `bench-${i}`;
  await api('POST', `/ops/fulfillment-orders/${id}/accept`);
  await api('POST', `/ops/fulfillment-orders/${id}/lock`, { lock_owner: owner, timeout_minutes: 5 });
  const fo = (await api('GET', `/ops/fulfillment-orders/${id}`)).data;
  const pkg = (
    await api('POST', '/ops/packages', {
      fulfillment_order_id: id,
      idempotency_key: `bench-${id}`,
      package_line_items: fo.line_items.map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.remaining_quantity })),
    })
  ).data;
  await api('POST', `/ops/packages/${pkg.id}/label`, {
    label_url: 'https://labels.example/bench.pdf',
    tracking_number: `1ZBENCH${i}`,
    carrier: 'UPS',
    service: 'Ground',
    cost: 6.1,
    cost_currency: 'USD',
  });
  await api('POST', `/ops/packages/${pkg.id}/fulfill`, { locked_by: owner });
}

/**
 * One request type of the fulfillment over every fulfillment order `ids` (4 clients): accept,
 * get (returns the line items), lock, package (`extra` = the line items; returns package ids),
 * label, fulfill (`ids` = package ids for the last two). Used by the floor and phases benches.
 */
export async function runPhase({ base, token, phase, ids, extra }) {
  const agent = new Agent({ connections: 4 });
  const api = client(base, token, agent);
  const out = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      const id = ids[i];
      if (phase === 'accept') await api('POST', `/ops/fulfillment-orders/${id}/accept`);
      if (phase === 'get') out[i] = (await api('GET', `/ops/fulfillment-orders/${id}`)).data.line_items;
      if (phase === 'lock') await api('POST', `/ops/fulfillment-orders/${id}/lock`, { lock_owner: `o${i}`, timeout_minutes: 30 });
      if (phase === 'package') {
        const lines = extra[i].map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.remaining_quantity }));
        out[i] = (
          await api('POST', '/ops/packages', { fulfillment_order_id: id, idempotency_key: `k-${id}`, package_line_items: lines })
        ).data.id;
      }
      if (phase === 'label') {
        const label = { label_url: 'https://labels.example/x.pdf', tracking_number: `1Z${i}`, carrier: 'UPS', service: 'Ground' };
        await api('POST', `/ops/packages/${id}/label`, { ...label, cost: 6.1, cost_currency: 'USD' });
      }
      if (phase === 'fulfill') await api('POST', `/ops/packages/${id}/fulfill`, { locked_by: `o${i}` });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  await agent.close();
  return out;
}

/**
 * Fulfills `foIds` from a worker thread; resolves with load()'s figures and the request count.
 * `bases`/`tokens` (instead of `base`/`token`) spread fulfillment order i over bases[i % n] and
 * tokens[i % k]: several replicas, and keys enough that no key's rate limit is reached.
 */
export function runWorkflowsInWorker({ base, token, bases = [base], tokens = [token], foIds, concurrency, deadlineMs }) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { bases, tokens, foIds, concurrency, deadlineMs } });
    w.once('message', (m) => (m.error ? reject(new Error(m.error)) : resolve(m)));
    w.once('error', reject);
    w.once('exit', (code) => code && reject(new Error(`workflow worker exited ${code}`)));
  });
}

if (!isMainThread && workerData?.foIds) {
  const { bases, tokens, foIds, concurrency, deadlineMs } = workerData;
  const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  const apis = bases.flatMap((base) => tokens.map((token) => client(base, token, agent)));
  // Order i goes to replica i % bases, with key (i / bases) % tokens: every pair is used.
  const apiFor = (i) => apis[(i % bases.length) * tokens.length + (Math.floor(i / bases.length) % tokens.length)];
  try {
    const r = await load(foIds.length, concurrency, deadlineMs, (i) => fulfillOne(apiFor(i), foIds[i], i));
    parentPort.postMessage({ ...r, requests: r.done * 6 });
  } catch (err) {
    parentPort.postMessage({ error: String(err?.stack ?? err) });
  } finally {
    await agent.close();
  }
}
