// Reads (issue 9 target 4): GET /v1/ops/products?limit=20 on fos's in-process server against a
// hand-written Fastify + SQLite server (bench/products-baseline.mjs) over the SAME database file,
// one after the other in alternating rounds with the same undici load, so machine drift falls on
// both. Both bodies are compared byte for byte before timing: the baseline answers the same JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { getMany, median, ROOT } from './lib.mjs';
import { startBaseline } from './products-baseline.mjs';

export const READS_TARGET_RATIO = 0.7;
const PATH = '/v1/ops/products?limit=20';
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

/**
 * A fulfiller with one delegated merchant, two warehouses and `products` products split between
 * the two teams (so fos merges two team walks), most stocked, a few with listing variants or
 * bundle components: every part of the ops record has something to show.
 */
async function seed(db, teamId, products) {
  const teams = await dist('domain/teams/teams.js');
  const merchant = await teams.createTeam(db, { name: 'Reads Merchant', kind: 'MERCHANT' });
  await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: teamId });
  const address = { address1: '1 Dock', city: 'Reno', state: 'NV', zip: '89501', country: 'US' };
  const warehouses = [
    await db.prisma.warehouse.create({ data: { team_id: teamId, name: 'Reno DC', ...address } }),
    await db.prisma.warehouse.create({ data: { team_id: teamId, name: 'Austin DC', ...address } }),
  ];
  const shop = await db.prisma.shop.create({
    data: { merchant_team_id: merchant.id, fulfiller_team_id: teamId, name: 'Reads Shop', slug: 'reads', shop_type: 'SHOPIFY' },
  });
  const ids = [];
  for (let i = 0; i < products; i++) {
    const own = i % 3 === 0;
    const sku = `READ-${String(i).padStart(5, '0')}`;
    const name = `Reads product ${i}`;
    const text = `${name.toLowerCase()}\n${sku.toLowerCase()}`;
    const p = await db.prisma.product.create({
      data: {
        team_id: own ? teamId : merchant.id,
        merchant_team_id: own ? null : merchant.id,
        fulfiller_team_id: teamId,
        name,
        sku,
        barcode: i % 2 ? `0${100000000000 + i}` : null,
        measurement_unit: 'MM',
        weight_unit: 'G',
        weight: 100 + i,
        length: 10,
        width: 20.5,
        height: 3,
        cost_price: i % 4 ? 4.25 : null,
        cost_currency: i % 4 ? 'USD' : null,
        config: i % 5 === 0 ? { replenishment_source_strategy: 'VENDOR', replenishment_minimum_level: 5 } : undefined,
        search_text: text,
        name_sku_search_text: text,
      },
    });
    ids.push(p.id);
    if (i % 7 !== 6)
      await db.prisma.inventoryLevel.create({
        data: { product_id: p.id, warehouse_id: warehouses[0].id, on_hand: 500 + i, committed: i % 11 },
      });
    if (i % 2 === 0) await db.prisma.inventoryLevel.create({ data: { product_id: p.id, warehouse_id: warehouses[1].id, on_hand: 40 } });
    if (i % 4 === 1) await db.prisma.productListingVariant.create({ data: { product_id: p.id, shop_id: shop.id, sku, name } });
    if (i % 9 === 2) await db.prisma.productListingVariant.create({ data: { product_id: p.id, sku, name } });
    if (i % 10 === 9) {
      await db.prisma.productComponent.create({
        data: { kind: 'VIRTUAL_BUNDLE', parent_product_id: p.id, component_product_id: ids[i - 1], component_quantity: 2 },
      });
    }
  }
}

/** `count` GETs by `concurrency` workers; requests per second and the median latency. */
async function load(url, token, agent, count, concurrency) {
  const cpu = process.cpuUsage();
  const { latencies, seconds } = await getMany(url, token, agent, count, concurrency);
  const used = process.cpuUsage(cpu);
  // CPU per request (server and client, one process): what other processes on a shared machine
  // disturb least.
  return { perSecond: count / seconds, p50: median(latencies), cpuMs: (used.user + used.system) / 1000 / count };
}

async function body(url, token, agent) {
  const res = await request(url, { dispatcher: agent, headers: { 'x-access-token': token } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${text.slice(0, 300)}`);
  return text;
}

export async function readsBench({ products = 300, requests = 2000, concurrency = 8, rounds = 3 } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-reads-'));
  const file = path.join(dir, 'fos.db');
  const { startServer } = await dist('server/serve.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const server = await startServer({ db: file, host: '127.0.0.1', port: 0, logger: false });
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  let baseline;
  try {
    const teamId = server.bootstrap.teamId;
    await seed(server.db, teamId, products);
    // Rate limiting stays on (it is part of fos's path): each round gets its own tier-4 key
    // (3,000 requests a minute), so no request answers 429.
    let keys = 0;
    const key = async () =>
      (await createKey(server.db, teamId, { name: `bench reads ${++keys}`, power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const token = await key();
    baseline = await startBaseline({ file });
    const urls = { fos: new URL(PATH, server.url).href, baseline: new URL(PATH, baseline.url).href };
    const [fosBody, baseBody] = [await body(urls.fos, token, agent), await body(urls.baseline, token, agent)];
    if (fosBody !== baseBody) {
      let i = 0;
      while (fosBody[i] === baseBody[i]) i++;
      const at = (b) => b.slice(Math.max(0, i - 200), i + 200);
      throw new Error(`the baseline's body differs from fos's at character ${i}:\n fos:      …${at(fosBody)}\n baseline: …${at(baseBody)}`);
    }
    // Warm both (JIT, caches), then alternate rounds.
    for (const name of ['fos', 'baseline']) await load(urls[name], token, agent, Math.min(500, requests), concurrency);
    const runs = { fos: [], baseline: [] };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? ['baseline', 'fos'] : ['fos', 'baseline'];
      const roundToken = await key();
      for (const name of order) runs[name].push(await load(urls[name], roundToken, agent, requests, concurrency));
    }
    const mean = (name, k) => runs[name].reduce((s, x) => s + x[k], 0) / rounds;
    const figures = (name) => ({ perSecond: mean(name, 'perSecond'), p50: mean(name, 'p50'), cpuMs: mean(name, 'cpuMs') });
    const [fos, base] = [figures('fos'), figures('baseline')];
    return {
      products,
      requests,
      concurrency,
      rounds,
      bytes: fosBody.length,
      fos,
      baseline: base,
      ratio: fos.perSecond / base.perSecond,
      cpuRatio: base.cpuMs / fos.cpuMs,
    };
  } finally {
    await agent.close();
    await baseline?.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
