// API throughput and latency on an in-process server (dist/, SQLite temp file, 127.0.0.1 port 0)
// through undici: GET /v1/ops/products, and the full fulfilment workflow (accept, lock, read,
// package, label, fulfil) over converted orders. Tier-4 keys (3000 requests / 60 s each) keep
// the rate limit out of the figures; request counts stay below that.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { median, mib, percentile, ROOT } from './lib.mjs';

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

export function client(base, token, agent) {
  return async (method, p, body, expectStatus = [200, 201]) => {
    const started = performance.now();
    const res = await request(`${base}${p}`, {
      method, dispatcher: agent,
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
  return { done: latencies.length, seconds, perSecond: latencies.length / seconds, p50: median(latencies), p95: percentile(latencies, 95), p99: percentile(latencies, 99) };
}

/** A merchant, its products and `opts.orders` converted orders; `server` needs `db` and `bootstrap.teamId`. */
export async function seed(server, api, opts) {
  const db = server.db;
  const teamId = server.bootstrap.teamId;
  const teams = await dist('domain/teams/teams.js');
  const merchant = await teams.createTeam(db, { name: 'Bench Merchant', kind: 'MERCHANT' });
  await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: teamId });
  const wh = await db.prisma.warehouse.create({ data: { team_id: teamId, name: 'Bench DC', address1: '1 Dock', city: 'Reno', state: 'NV', zip: '89501', country: 'US' } });
  const skus = [];
  for (let i = 0; i < opts.products; i++) {
    const sku = `BENCH-${String(i).padStart(4, '0')}`;
    const p = await db.prisma.product.create({
      data: {
        team_id: merchant.id, merchant_team_id: merchant.id, fulfiller_team_id: teamId, name: `Bench product ${i}`, sku,
        measurement_unit: 'MM', weight_unit: 'G', weight: 300, search_text: `bench product ${i}\n${sku.toLowerCase()}`,
        name_sku_search_text: `bench product ${i}\n${sku.toLowerCase()}`,
      },
    });
    await db.prisma.inventoryLevel.create({ data: { product_id: p.id, warehouse_id: wh.id, on_hand: 10_000 } });
    skus.push(sku);
  }
  const orders = [];
  for (let i = 0; i < opts.orders; i++) {
    const draft = await api('POST', '/ops/draft-orders', {
      merchant_team_id: merchant.id, payment_status: 'PAID',
      shipping_address: { name: 'Bench Customer', address1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
      customer: { email: 'bench@example.com', name: 'Bench Customer' },
      line_items: [{ sku: skus[i % skus.length], quantity: 1, price: 10 }, { sku: skus[(i + 1) % skus.length], quantity: 2, price: 5 }],
    });
    const order = await api('POST', `/ops/draft-orders/${draft.data.id}/convert`);
    orders.push(order.data.id);
  }
  return orders;
}

/** The fulfilment workflow (accept, lock, read, package, label, fulfil) over every fulfillment order of `orders`. */
export async function fulfilAll(api, orders, opts) {
  const foIds = [];
  for (const orderId of orders) {
    const list = await api('GET', `/ops/fulfillment-orders?order_id=${orderId}`);
    foIds.push(...list.data.data.map((fo) => fo.id));
  }
  let requests = 0;
  const workflow = await load(foIds.length, opts.workflowConcurrency, opts.deadlineMs, async (i) => {
    const id = foIds[i];
    const owner = `bench-${i}`;
    await api('POST', `/ops/fulfillment-orders/${id}/accept`);
    await api('POST', `/ops/fulfillment-orders/${id}/lock`, { lock_owner: owner, timeout_minutes: 5 });
    const fo = (await api('GET', `/ops/fulfillment-orders/${id}`)).data;
    const pkg = (await api('POST', '/ops/packages', {
      fulfillment_order_id: id, idempotency_key: `bench-${id}`,
      package_line_items: fo.line_items.map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.remaining_quantity })),
    })).data;
    await api('POST', `/ops/packages/${pkg.id}/label`, {
      label_url: 'https://labels.example/bench.pdf', tracking_number: `1ZBENCH${i}`, carrier: 'UPS', service: 'Ground', cost: 6.1, cost_currency: 'USD',
    });
    await api('POST', `/ops/packages/${pkg.id}/fulfill`, { locked_by: owner });
    requests += 6;
  });
  return { workflow: { ...workflow, requests }, foIds };
}

export async function apiBench(opts) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-api-'));
  const { startServer } = await dist('server/serve.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const server = await startServer({ db: path.join(dir, 'fos.db'), host: '127.0.0.1', port: 0, logger: false });
  const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  try {
    const teamId = server.bootstrap.teamId;
    const key = async (name) => (await createKey(server.db, teamId, { name, power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const [setupKey, readKey, workKey] = [await key('bench setup'), await key('bench reads'), await key('bench workflow')];
    const orders = await seed(server, client(server.url, setupKey, agent), opts);

    const read = client(server.url, readKey, agent);
    await read('GET', '/ops/products?limit=20'); // warm-up
    const products = await load(opts.reads, opts.concurrency, opts.deadlineMs, () => read('GET', `/ops/products?limit=20`));

    const api = client(server.url, workKey, agent);
    const { workflow, foIds } = await fulfilAll(api, orders, opts);
    const fulfilled = await server.db.prisma.fulfillmentOrder.count({ where: { id: { in: foIds }, status: 'FULFILLED' } });
    if (fulfilled !== workflow.done) throw new Error(`workflow: ${workflow.done} runs but ${fulfilled} fulfillment orders FULFILLED`);
    const mem = process.memoryUsage();
    return { products, workflow, rssMiB: mib(mem.rss), heapMiB: mib(mem.heapUsed) };
  } finally {
    await agent.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
