// Billing a fulfillment by a versioned rate card (issue 40 item 6: <= 1 ms of server CPU): the
// fulfill's billing step (billShipping: the delegation, order and warehouse read, the package and
// its label as the fulfill read them, the package's products for pick fees, the SHIPPING, PICK,
// PACK and PACKAGING charges in one insert, their events), each in its own write transaction,
// against the same number of write transactions that only write the package row.
// Both sides run the outbox worker's pass (src/server/workers/outbox.ts: processDueEvents, a batch
// of up to 100) after every PASS_EVERY fulfillments, as a server under load does: no endpoint
// subscribes, so the billed side's eight charge.created events are written delivered and its passes
// find nothing to do, as the other's (a check below fails if any is left undelivered). Each
// fulfillment is followed by a turn of the event loop, as a server's requests are: timers run, and
// with them SQLite's checkpointer thread (src/db/wal-checkpointer.ts), whose copying of the pages
// billing wrote is counted (without the turn it never ran, and the log grew until the connection's
// own checkpoint at 50,000 pages). Process CPU (user + system, every thread), warm (the version
// compiled and cached, the statements prepared). SQLite in a temp file, and PostgreSQL in a fresh
// schema of FOS_BENCH_PG_URL when set.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

export const BILLING_TARGET_MS = 1;
/** Fulfillments between two worker passes: 12 billed ones leave 96 events, about one full batch. */
const PASS_EVERY = 12;
const dist = (p) => import(path.join(ROOT, 'dist', p));
const cpuMs = (u) => (u.user + u.system) / 1000;

const FEES = [
  { id: 'ship', event: 'SHIPPING', price: { type: 'LABEL_MARKUP', markup_percent: 10, minimum: 5 } },
  { id: 'pick', event: 'PICK', price: { type: 'FIRST_ADDITIONAL', first: 1.25, additional: 0.4 } },
  { id: 'pack', event: 'PACK', price: { type: 'PER_ORDER', amount: 0.85 } },
  { id: 'carton', event: 'PACKAGING', price: { type: 'FLAT', amount: 0.6 } },
];

/** One packed, labelled package of two products (one with a pick_fee_override) to bill again and again. */
async function seed(db, merchantId, fulfillerId) {
  const p = db.prisma;
  const w = await p.warehouse.create({ data: { team_id: fulfillerId, name: 'Bench DC' } });
  const product = (sku, pick_fee_override) =>
    p.product.create({ data: { team_id: merchantId, name: sku, sku, measurement_unit: 'MM', weight_unit: 'G', pick_fee_override } });
  const [a, b] = [await product('BENCH-A', null), await product('BENCH-B', 0.9)];
  const order = await p.order.create({
    data: { order_number: '#B1', merchant_team_id: merchantId, fulfiller_team_id: fulfillerId, tags: ['vip'], line_item_image_urls: [] },
  });
  const fo = await p.fulfillmentOrder.create({
    data: { order_id: order.id, warehouse_id: w.id, fulfiller_team_id: fulfillerId, merchant_team_id: merchantId },
  });
  const pkg = await p.package.create({
    data: {
      fulfiller_team_id: fulfillerId,
      merchant_team_id: merchantId,
      fulfillment_order_id: fo.id,
      warehouse_id: w.id,
      carton_id: 'BOX-M',
      weight: 900,
      weight_unit: 'G',
      total_item_quantity: 5,
      unique_line_item_count: 2,
    },
  });
  for (const [prod, quantity] of [
    [a, 2],
    [b, 3],
  ]) {
    await p.packageLineItem.create({ data: { package_id: pkg.id, product_id: prod.id, sku: prod.sku, quantity } });
  }
  const label = await p.shippingLabel.create({
    data: { package_id: pkg.id, fulfiller_team_id: fulfillerId, merchant_team_id: merchantId, price: 8.4, currency: 'USD', zone: '5' },
  });
  // The package and its label as the fulfill has them (it read both before billing: src/domain/fulfillment/fulfill.ts).
  return { orderId: order.id, fulfillmentOrderId: fo.id, packageId: pkg.id, package: pkg, label };
}

async function runOn(url, n) {
  const [{ migrate }, { createDb }, { bootstrapIfEmpty }, teams, { transaction }, versions, shipping, { newId }, dispatch, events] =
    await Promise.all([
      dist('db/migrate.js'),
      dist('db/client.js'),
      dist('domain/bootstrap.js'),
      dist('domain/teams/teams.js'),
      dist('db/tx.js'),
      dist('domain/charges/versions.js'),
      dist('domain/charges/shipping.js'),
      dist('db/ids.js'),
      dist('domain/webhooks/dispatch.js'),
      dist('domain/events/index.js'),
    ]);
  await migrate(url);
  const db = await createDb(url);
  try {
    const boot = await bootstrapIfEmpty(db);
    const merchant = await teams.createTeam(db, { name: 'Bench merchant', kind: 'MERCHANT', measurement_system: 'METRIC' });
    const d = await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: boot.teamId });
    const doc = { rate_card_name: 'Bench', semantic_version: '1.0.0', effective_at: '2020-01-01T00:00:00Z', currency: 'USD', fees: FEES };
    const { view } = await versions.publishVersion(db, boot.teamId, doc);
    await versions.linkDelegation(db, boot.teamId, d.id, view.rate_card_id);
    const ids = await seed(db, merchant.id, boot.teamId);
    // Fulfillment ids as the fulfill makes them (UUIDv7, src/db/ids.ts): the charges' keys on the
    // fulfillment (its (fulfillment_id, category) and billing keys) grow at the end of their
    // indexes as in the server, where random ids would land all over them.
    const input = () => ({ ...ids, fulfillmentId: newId(), merchantTeamId: merchant.id, fulfillerTeamId: boot.teamId });
    // The fulfill's transaction writes anyway (its commit is paid without billing): the baseline
    // writes the package row, the billing run writes it and bills.
    const touch = (tx) => tx.package.update({ where: { id: ids.packageId }, data: { updated_at: new Date() } });
    const bill = () => transaction(db, async (tx) => (await touch(tx), shipping.billShipping(tx, input())));
    const empty = () => transaction(db, touch);
    const adapters = events.defaultSalesChannelAdapters();
    const pass = () => dispatch.processDueEvents(db, new Date(Date.now() + 1000), { batchSize: 100, adapters });
    const cpuOf = async (fn, k) => {
      const c0 = process.cpuUsage();
      for (let i = 0; i < k; i++) {
        await fn();
        await new Promise((r) => setImmediate(r)); // a turn of the event loop (see above)
        if ((i + 1) % PASS_EVERY === 0 || i === k - 1) while ((await pass()) === 100); // the backlog, batch by batch
      }
      return cpuMs(process.cpuUsage(c0)) / k;
    };
    const warm = Math.min(200, n);
    await cpuOf(empty, warm);
    await cpuOf(bill, warm); // prepared statements, the compiled version
    // Rounds of each in turn, the median of the rounds' differences: the machine's load moves
    // both alike within a round (one pass of each, minutes apart, differed by 3x on a busy host).
    const rounds = 10;
    const per = Math.max(1, Math.round(n / rounds));
    const diffs = [];
    const bases = [];
    for (let r = 0; r < rounds; r++) {
      const base = await cpuOf(empty, per);
      const billed = await cpuOf(bill, per);
      bases.push(base);
      diffs.push(billed - base);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const addedMs = median(diffs);
    const baseMs = median(bases);
    const billMs = baseMs + addedMs;
    const charges = await db.prisma.charge.count();
    if (charges !== 4 * (warm + rounds * per)) throw new Error(`${charges} charges billed, expected 4 a fulfillment`);
    const pending = await db.prisma.outboxEvent.count({ where: { delivered_at: null } });
    if (pending) throw new Error(`${pending} events left undelivered: the worker's passes are not all counted`);
    return { provider: db.provider, fulfillments: rounds * per, baseMs, billMs, addedMs };
  } finally {
    await db.close();
  }
}

export async function billingBench({ n = 2000, pgUrl = process.env.FOS_BENCH_PG_URL } = {}) {
  const out = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-billing-'));
  try {
    out.push(await runOn(`file:${path.join(dir, 'fos.db')}`, n));
    if (pgUrl) {
      const schema = `bench_billing_${randomUUID().slice(0, 8)}`;
      try {
        out.push(await runOn(`${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`, n));
      } finally {
        const { default: pg } = await import('pg');
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}
