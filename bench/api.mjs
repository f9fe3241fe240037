// API throughput and latency on an in-process server (dist/, SQLite temp file, 127.0.0.1 port 0)
// through undici: GET /v1/ops/products, and the full fulfillment workflow (accept, lock, read,
// package, label, fulfill) over converted orders, sent from a worker thread (bench/workflow.mjs).
// Tier-4 keys (3000 requests / 60 s each) keep the rate limit out of the figures; request counts
// stay below that.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent } from 'undici';
import { mainThreadCpuMs, mib, ROOT } from './lib.mjs';
import { client, fulfillOne, load, runWorkflowsInWorker } from './workflow.mjs';

export { client, load };

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

/** A merchant, its products and `opts.orders` converted orders (`opts.distinct`: no two share a product); `server` needs `db` and `bootstrap.teamId`. */
export async function seed(server, api, opts) {
  const db = server.db;
  const teamId = server.bootstrap.teamId;
  const teams = await dist('domain/teams/teams.js');
  const merchant = await teams.createTeam(db, { name: 'Bench Merchant', kind: 'MERCHANT' });
  await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: teamId });
  const wh = await db.prisma.warehouse.create({
    data: { team_id: teamId, name: 'Bench DC', address1: '1 Dock', city: 'Reno', state: 'NV', zip: '89501', country: 'US' },
  });
  const skus = [];
  for (let i = 0; i < opts.products; i++) {
    const sku = `BENCH-${String(i).padStart(4, '0')}`;
    const p = await db.prisma.product.create({
      data: {
        team_id: merchant.id,
        merchant_team_id: merchant.id,
        fulfiller_team_id: teamId,
        name: `Bench product ${i}`,
        sku,
        measurement_unit: 'MM',
        weight_unit: 'G',
        weight: 300,
        search_text: `bench product ${i}\n${sku.toLowerCase()}`,
        name_sku_search_text: `bench product ${i}\n${sku.toLowerCase()}`,
      },
    });
    await db.prisma.inventoryLevel.create({ data: { product_id: p.id, warehouse_id: wh.id, on_hand: 10_000 } });
    skus.push(sku);
  }
  const orders = [];
  // By default neighbouring orders share a product (contention on its level); `distinct` gives
  // each order two products of its own while there are products enough.
  const step = opts.distinct ? 2 : 1;
  for (let i = 0; i < opts.orders; i++) {
    const draft = await api('POST', '/ops/draft-orders', {
      merchant_team_id: merchant.id,
      payment_status: 'PAID',
      shipping_address: { name: 'Bench Customer', address1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
      customer: { email: 'bench@example.com', name: 'Bench Customer' },
      line_items: [
        { sku: skus[(step * i) % skus.length], quantity: 1, price: 10 },
        { sku: skus[(step * i + 1) % skus.length], quantity: 2, price: 5 },
      ],
    });
    const order = await api('POST', `/ops/draft-orders/${draft.data.id}/convert`);
    orders.push(order.data.id);
  }
  return orders;
}

/** The fulfillment orders of `orders`, in order. */
async function foIdsOf(api, orders) {
  const foIds = [];
  for (const orderId of orders) {
    const list = await api('GET', `/ops/fulfillment-orders?order_id=${orderId}`);
    foIds.push(...list.data.data.map((fo) => fo.id));
  }
  return foIds;
}

/** The fulfillment workflow over every fulfillment order of `orders`, from this thread (the server is another process). */
export async function fulfillAll(api, orders, opts) {
  const foIds = await foIdsOf(api, orders);
  const workflow = await load(foIds.length, opts.workflowConcurrency, opts.deadlineMs, (i) => fulfillOne(api, foIds[i], i));
  return { workflow: { ...workflow, requests: workflow.done * 6 }, foIds };
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

    const foIds = await foIdsOf(client(server.url, workKey, agent), orders);
    // The clients run in a worker thread; this thread is the server's alone. Its CPU time per
    // workflow is what one server process spends on a fulfillment and, unlike wall-clock
    // throughput, hardly moves with other load on the machine (event-loop utilization where
    // /proc is missing, which counts waiting for a core too).
    const cpu0 = process.cpuUsage();
    const thread0 = await mainThreadCpuMs();
    const elu0 = performance.eventLoopUtilization();
    const workflow = await runWorkflowsInWorker({
      base: server.url,
      token: workKey,
      foIds,
      concurrency: opts.workflowConcurrency,
      deadlineMs: opts.deadlineMs,
    });
    const elu = performance.eventLoopUtilization(elu0);
    const thread1 = await mainThreadCpuMs();
    const cpu = process.cpuUsage(cpu0);
    workflow.serverMsPerRun =
      (thread0 !== undefined && thread1 !== undefined ? thread1 - thread0 : elu.active) / Math.max(1, workflow.done);
    workflow.cpuMsPerRun = (cpu.user + cpu.system) / 1000 / Math.max(1, workflow.done);
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
