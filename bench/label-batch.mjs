// `npm run bench -- batch`: a label batch of FOS_BENCH_BATCH_PACKAGES packed boxes (default 500) on
// the built-in rate table, end to end through HTTP against an in-process `fos serve` (SQLite temp
// file): POST /v1/ops/label-batches, poll until COMPLETED, then GET the merged PDF. Target: 20 s
// (issue 41) from the POST to the merged file in hand. Needs dist/ (`npm run build`).
// With `carrierLatencyMs`, the labels are bought from a loopback EasyPost that answers each call
// after that long (bench/carrier-double.mjs): the batch is then bound by its parallelism
// (BATCH_CONCURRENCY packages in flight, three calls each: rate, buy, label file), and the figure
// is reported beside that bound.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { seed } from './api.mjs';
import { client, load } from './workflow.mjs';
import { ROOT } from './lib.mjs';
import { easypostBenchDouble } from './carrier-double.mjs';

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

/** Carrier calls a package's label costs on EasyPost: the shipment (rates), the buy, the label file. */
const CALLS_PER_LABEL = 3;

export async function batchBench({ packages, carrierLatencyMs = null }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-batch-'));
  const { startServer } = await dist('server/serve.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const { BATCH_CONCURRENCY } = await dist('domain/label-batches/run.js');
  const carrier = carrierLatencyMs === null ? null : await easypostBenchDouble({ latencyMs: carrierLatencyMs });
  const server = await startServer({
    db: path.join(dir, 'fos.db'),
    host: '127.0.0.1',
    port: 0,
    logger: false,
    allowPrivateWebhooks: carrier !== null, // the double listens on loopback
  });
  const agent = new Agent({ connections: 8 });
  try {
    const teamId = server.bootstrap.teamId;
    const token = (await createKey(server.db, teamId, { name: 'bench batch', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const api = client(server.url, token, agent);
    const orders = await seed(server, api, { products: 20, orders: packages });
    if (carrier)
      await api(
        'POST',
        '/ops/carrier-integrations',
        { name: 'EasyPost', type: 'EASYPOST', api_base_url: `${carrier.url}/v2`, credentials: { api_key: 'EZTK_bench' } },
        [201],
      );
    else
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
    // The least time the carrier's latency allows with BATCH_CONCURRENCY packages in flight.
    const boundSeconds = carrier ? (Math.ceil(ids.length / BATCH_CONCURRENCY) * CALLS_PER_LABEL * carrierLatencyMs) / 1000 : null;
    return {
      packages: ids.length,
      buySeconds: (bought - t0) / 1000,
      totalSeconds: (done - t0) / 1000,
      pdfMiB: pdf.length / 1048576,
      concurrency: BATCH_CONCURRENCY,
      boundSeconds,
      carrierCalls: carrier ? { ...carrier.counts } : null,
    };
  } finally {
    await agent.close();
    await server.close();
    await carrier?.close();
    await rm(dir, { recursive: true, force: true });
  }
}
