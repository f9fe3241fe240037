// `npm run bench -- batch`: a label batch of FOS_BENCH_BATCH_PACKAGES packed boxes (default 500) on
// the built-in rate table, end to end through HTTP against an in-process `fos serve` (SQLite temp
// file): POST /v1/ops/label-batches, poll until COMPLETED, then GET the merged PDF. Target: 20 s
// (issue 41) from the POST to the merged file in hand. Needs dist/ (`npm run build`).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { seed } from './api.mjs';
import { client, load } from './workflow.mjs';
import { ROOT } from './lib.mjs';

export const BATCH_TARGET_S = 20;
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

/** A package of every line of each fulfillment order of `orders` (accepted first), 8 at a time. */
async function packAll(api, orders) {
  const ids = [];
  await load(orders.length, 8, Infinity, async (i) => {
    const fos = (await api('GET', `/ops/fulfillment-orders?order_id=${orders[i]}`)).data.data;
    for (const fo of fos) {
      await api('POST', `/ops/fulfillment-orders/${fo.id}/accept`);
      const pkg = await api('POST', '/ops/packages', {
        fulfillment_order_id: fo.id,
        weight: 900,
        weight_unit: 'G',
        package_line_items: fo.line_items.map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.remaining_quantity })),
      });
      ids.push(pkg.data.id);
    }
  });
  return ids;
}

export async function batchBench({ packages }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-batch-'));
  const { startServer } = await dist('server/serve.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const server = await startServer({ db: path.join(dir, 'fos.db'), host: '127.0.0.1', port: 0, logger: false });
  const agent = new Agent({ connections: 8 });
  try {
    const teamId = server.bootstrap.teamId;
    const token = (await createKey(server.db, teamId, { name: 'bench batch', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const api = client(server.url, token, agent);
    const orders = await seed(server, api, { products: 20, orders: packages });
    await api('POST', '/ops/carrier-rates', {
      carrier_id: 'ups',
      carrier_name: 'UPS',
      service_id: 'ground',
      service_name: 'Ground',
      amount: 6.1,
      weight_unit: 'G',
      estimated_days: 3,
    });
    const ids = await packAll(api, orders);
    const t0 = performance.now();
    const made = (await api('POST', '/ops/label-batches', { package_ids: ids, rate_strategy: 'CHEAPEST' }, [202])).data;
    let b = made;
    while (b.status !== 'COMPLETED') {
      await sleep(200);
      b = (await api('GET', `/ops/label-batches/${made.id}`)).data;
    }
    const bought = performance.now();
    const file = await request(`${server.url}/ops/label-batches/${made.id}/labels`, {
      headers: { 'x-access-token': token },
      dispatcher: agent,
    });
    const pdf = Buffer.from(await file.body.arrayBuffer());
    const done = performance.now();
    if (b.bought !== ids.length) throw new Error(`batch: ${b.bought} of ${ids.length} bought (${b.failed} failed)`);
    return { packages: ids.length, buySeconds: (bought - t0) / 1000, totalSeconds: (done - t0) / 1000, pdfMiB: pdf.length / 1048576 };
  } finally {
    await agent.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
