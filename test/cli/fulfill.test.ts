// `fos fulfill run` through the real command tree (Context with captured streams and TTY
// switches) against a REAL in-process server listening on 127.0.0.1, with data from the orders
// area (draft -> convert) and the fulfillment fixtures. Asserts output, exit codes and the
// database state after each run.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { run } from '../../src/cli/main.js';
import { FulfillApi } from '../../src/cli/commands/fulfill/api.js';
import { parseIds } from '../../src/cli/commands/fulfill/input.js';
import { ApiClient } from '../../src/client/api-client.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { convertedOrder, fulfillmentFixture, fixtureMerchant } from '../helpers/fixtures.js';
import { tempConfigDir } from './helpers/cli.js';
import { FakeApi, problem } from './helpers/fake-api.js';

let t: TestApp;
let env: Record<string, string>;
const UPLOAD = [
  '--label-url',
  'https://labels.example/1.pdf',
  '--tracking',
  '1Z999',
  '--carrier',
  'UPS',
  '--service',
  'Ground',
  '--cost',
  '7.5',
];

async function fos(args: string[], opts: { stdin?: string; stdoutTTY?: boolean; stderrTTY?: boolean } = {}) {
  const io = testIOStreams({ stdin: opts.stdin, stdoutTTY: opts.stdoutTTY ?? false, stderrTTY: opts.stderrTTY ?? false });
  const ctx = createContext({ io, env: { ...env, FOS_CONFIG_DIR: await tempConfigDir() }, retry: { baseDelayMs: 5, maxWaitMs: 3000 } });
  const code = await run(['node', 'fos', ...args], ctx, {
    loadServerCommands: async () => {
      throw new Error('not in CLI tests');
    },
  });
  const stdout = io.stdoutText();
  const lines =
    stdout.trim() && !opts.stdoutTTY
      ? stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  return { code, stdout, stderr: io.stderrText(), lines };
}

const foOf = (id: string) => t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id }, include: { line_items: true } });
const packagesOf = (foId: string) => t.db.prisma.package.findMany({ where: { fulfillment_order_id: foId }, include: { line_items: true } });

async function addRate(service: string, amount: number) {
  const res = await t.call('POST', '/v1/ops/carrier-rates', {
    body: {
      carrier_id: 'ups',
      carrier_name: 'UPS',
      service_id: service.toLowerCase(),
      service_name: service,
      amount,
      per_unit_weight: 0.001,
      weight_unit: 'G',
      countries: ['US'],
    },
  });
  expect(res.statusCode).toBe(201);
}

/** An order with two fulfillment orders (two warehouses), both ACCEPTED. */
async function twoFoOrder() {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
  const db = t.db.prisma;
  const wh = await db.warehouse.create({
    data: { team_id: t.teamId, name: 'East', address1: '1 Pier', city: 'Newark', state: 'NJ', zip: '07102', country: 'US' },
  });
  const merchant = await fixtureMerchant(t);
  const product = await db.product.create({
    data: {
      team_id: merchant,
      merchant_team_id: merchant,
      fulfiller_team_id: t.teamId,
      name: 'Teapot',
      sku: `TEA-${randomUUID().slice(0, 8)}`,
      measurement_unit: 'MM',
      weight_unit: 'G',
      weight: 900,
    },
  });
  await db.inventoryLevel.create({ data: { product_id: product.id, warehouse_id: wh.id, on_hand: 5, committed: 1 } });
  const line = await db.orderLineItem.create({
    data: {
      order_id: f.order.id,
      kind: 'CORE',
      product_id: product.id,
      sku: product.sku,
      name: product.name,
      remaining_quantity: 1,
      total_quantity: 1,
    },
  });
  const fo2 = await db.fulfillmentOrder.create({
    data: {
      order_id: f.order.id,
      warehouse_id: wh.id,
      fulfiller_team_id: t.teamId,
      merchant_team_id: merchant,
      status: 'ACCEPTED',
      request_status: 'ACCEPTED',
    },
  });
  await db.fulfillmentOrderLineItem.create({
    data: {
      fulfillment_order_id: fo2.id,
      order_line_item_id: line.id,
      product_id: product.id,
      sku: product.sku,
      name: product.name,
      quantity: 1,
      remaining_quantity: 1,
    },
  });
  return { order: f.order, fos: [f.fo.id, fo2.id] };
}

beforeAll(async () => {
  t = await testApp();
  const address = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const key = await t.key({ tier: 4 }); // the rate limit must not interfere
  env = { FOS_BASE_URL: `${address}/v1`, FOS_API_KEY: key.token, FOS_LOCK_OWNER: 'station-7' };
});
afterAll(() => t?.close());

describe('fos fulfill run', () => {
  let fulfilledFo: string;

  it('fulfills one PENDING fulfillment order of a converted order with an uploaded label', async () => {
    const { order } = await convertedOrder(t, t.adminToken, [{ sku: 'MUG-BLUE', quantity: 2, onHand: 10 }]);
    const [fo] = (await t.call('GET', '/v1/ops/fulfillment-orders', { query: { order_id: order.id } })).json().data;
    expect(fo.status).toBe('PENDING');

    const seen: string[] = [];
    const count = (req: { method?: string; url?: string }) => seen.push(`${req.method} ${req.url?.split('?')[0]}`);
    t.app.server.on('request', count);
    const r = await fos(['fulfill', 'run', fo.id, ...UPLOAD]);
    t.app.server.off('request', count);
    // As few requests as the API allows: no re-read of the fulfillment order after locking.
    expect(seen).toEqual([
      'GET /v1/ops/fulfillment-orders',
      `GET /v1/ops/fulfillment-orders/${fo.id}`,
      `POST /v1/ops/fulfillment-orders/${fo.id}/accept`,
      `POST /v1/ops/fulfillment-orders/${fo.id}/lock`,
      'GET /v1/ops/packages', // open packages a station made are taken over (issue 34)
      'POST /v1/ops/packages',
      expect.stringMatching(/^POST \/v1\/ops\/packages\/[^/]+\/label$/),
      expect.stringMatching(/^POST \/v1\/ops\/packages\/[^/]+\/fulfill$/),
    ]);
    expect(r.stderr).toContain('accepting it first (it is PENDING)');
    expect(r.stderr).toMatch(/locked by station-7 until/);
    expect(r.stderr).toMatch(/package \S+ created: MUG-BLUE ×2/);
    expect(r.stderr).toContain('labelled (uploaded): UPS Ground, tracking 1Z999');
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({
      input: fo.id,
      fulfillment_order_id: fo.id,
      order_id: order.id,
      status: 'fulfilled',
      tracking_code: '1Z999',
    });

    const after = await foOf(fo.id);
    expect(after).toMatchObject({ status: 'FULFILLED', lock_owner: null });
    expect(after.line_items[0].remaining_quantity).toBe(0);
    const pkgs = await packagesOf(fo.id);
    expect(pkgs).toHaveLength(1);
    expect(pkgs[0]).toMatchObject({ id: r.lines[0].package_id, status: 'FULFILLED' });
    expect(pkgs[0].idempotency_key).toMatch(/^fos-fulfill-[0-9a-f]{40}$/);
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product: { sku: 'MUG-BLUE' } } });
    expect(level).toMatchObject({ on_hand: 8, committed: 0 });
    fulfilledFo = fo.id;
  });

  it('expands an order id to its two fulfillment orders and buys the CHEAPEST labels (table on a TTY)', async () => {
    await addRate('Express', 20);
    await addRate('Ground', 4);
    const { order, fos: ids } = await twoFoOrder();
    const r = await fos(['fulfill', 'run', order.id, '--rate-strategy', 'cheapest'], { stdoutTTY: true, stderrTTY: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('2 of 2 fulfillment order(s) to fulfill');
    expect(r.stderr).toMatch(/weight 500 G \(from its items\)/);
    const table = r.stdout.trim().split('\n');
    expect(table[0]).toMatch(/^ORDER\s+STATUS\s+TRACKING\s+FULFILLMENT_ORDER\s+PACKAGE/); // no failure: no REASON
    expect(table).toHaveLength(3);
    for (const id of ids) {
      // ids shortened to a prefix unique in the table (accepted by every command)
      expect(
        table.some((l) => l.startsWith(order.order_number) && /\bfulfilled\b/.test(l) && id.startsWith(l.split(/\s+/)[3])),
        table.join('\n'),
      ).toBe(true);
      expect(await foOf(id)).toMatchObject({ status: 'FULFILLED', lock_owner: null });
      const [pkg] = await packagesOf(id);
      const label = await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: pkg.id } });
      expect(label.formatted_service).toBe('UPS Ground');
      expect(label.tracking_code).toMatch(/^UPS\d{16}$/);
    }
    expect(await t.db.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: 'CLOSED',
      fulfillment_status: 'FULFILLED',
    });
  });

  it('the closing table on a TTY names each order, its status and the reason of every failure (whole, after the table)', async () => {
    const ok = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const held = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const lock = await t.call('POST', `/v1/ops/fulfillment-orders/${held.fo.id}/lock`, {
      body: { lock_owner: 'station-elsewhere', timeout_minutes: 30 },
    });
    expect(lock.statusCode).toBe(200);
    await addRate('Ground', 4);
    const r = await fos(['fulfill', 'run', ok.fo.id, held.fo.id, '--rate-strategy', 'cheapest'], { stdoutTTY: true, stderrTTY: true });
    expect(r.code).not.toBe(0);
    const table = r.stdout.trim().split('\n');
    expect(table[0], r.stdout).toMatch(/^ORDER\s+STATUS\s+REASON\s+/);
    expect(table.find((l) => l.startsWith(ok.order.order_number))).toMatch(/\bfulfilled\b/);
    expect(table.find((l) => l.startsWith(held.order.order_number))).toMatch(/\bfailed\s+lock: /);
    expect(r.stderr).toMatch(new RegExp(`failed ${held.order.order_number}: lock: .*station-elsewhere.*\\[`));
  });

  it('--item packs only part; a second run for more units makes a second package', async () => {
    const f = await fulfillmentFixture(t, {
      lines: [
        { sku: 'PART-MUG', quantity: 3 },
        { sku: 'PART-CUP', quantity: 2 },
      ],
      status: 'ACCEPTED',
    });
    const r = await fos(['fulfill', 'run', f.fo.id, '--item', 'PART-MUG=1', ...UPLOAD]);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatchObject({ status: 'fulfilled', fulfillment_order_id: f.fo.id });
    let fo = await foOf(f.fo.id);
    expect(fo).toMatchObject({ status: 'IN_PROGRESS', lock_owner: null });
    expect(Object.fromEntries(fo.line_items.map((l) => [l.sku, l.remaining_quantity]))).toEqual({ 'PART-MUG': 2, 'PART-CUP': 2 });

    const again = await fos(['fulfill', 'run', f.fo.id, '--item', 'PART-MUG=1', '--item', 'PART-CUP=2', ...UPLOAD]);
    expect(again.code).toBe(0);
    fo = await foOf(f.fo.id);
    expect(Object.fromEntries(fo.line_items.map((l) => [l.sku, l.remaining_quantity]))).toEqual({ 'PART-MUG': 1, 'PART-CUP': 0 });
    const pkgs = await packagesOf(f.fo.id);
    expect(
      pkgs
        .map((p) =>
          p.line_items
            .map((l) => `${l.sku}×${l.quantity}`)
            .sort()
            .join(','),
        )
        .sort(),
    ).toEqual(['PART-CUP×2,PART-MUG×1', 'PART-MUG×1']);

    const tooMany = await fos(['fulfill', 'run', f.fo.id, '--item', 'PART-MUG=5', ...UPLOAD]);
    expect(tooMany.code).toBe(5);
    expect(tooMany.lines[0]).toMatchObject({ status: 'failed', step: 'plan', state: 'nothing changed' });
    expect(tooMany.stderr).toContain('only 1 of PART-MUG remain');
  });

  it("an order on hold: the hold's text is said once on stderr (issue 35)", async () => {
    const f = await fulfillmentFixture(t, { lines: [{ sku: 'HELD-MUG', quantity: 1 }], status: 'ACCEPTED' });
    const hold = await t.call('POST', `/v1/ops/orders/${f.order.id}/holds`, {
      body: { reason: 'FRAUD_REVIEW', reason_notes: 'countries differ' },
    });
    expect(hold.statusCode, hold.body).toBe(201);
    const r = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST']);
    expect(r.code).toBe(5);
    expect(r.lines[0]).toMatchObject({ status: 'failed', step: 'lock', error: { kind: 'on-hold' } });
    expect(r.stderr.split('countries differ')).toHaveLength(2);
    expect(r.stderr).toMatch(/FAILED at the lock step: .*FRAUD_REVIEW/);
    expect(r.stderr).toMatch(/error: fulfillment order \S+ failed at the lock step \(on-hold: the reason is above\) — nothing changed/);
  });

  it('a failure at the label step releases the lock, reports what is left, and a re-run reuses the package', async () => {
    const f = await fulfillmentFixture(t, {
      lines: [{ sku: 'FR-MUG', quantity: 2 }],
      status: 'ACCEPTED',
      shippingAddress: { name: 'Ada', address1: '1 Rue', city: 'Paris', country: 'FR', zip: '75001' },
    });
    const r = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST']);
    expect(r.code).toBe(5); // 409: no rate ships to FR
    const [pkg] = await packagesOf(f.fo.id);
    expect(r.lines[0]).toMatchObject({
      status: 'failed',
      step: 'label',
      package_id: pkg.id,
      tracking_code: null,
      state: `package ${pkg.id} created, not labelled or fulfilled; lock released`,
      error: { kind: 'conflict', status: 409, exit_code: 5 },
    });
    expect(r.stderr).toContain('FAILED at the label step');
    expect(r.stderr).toMatch(/error: fulfillment order \S+ failed at the label step \(conflict: the reason is above\) — .*lock released/);
    expect(await foOf(f.fo.id)).toMatchObject({ status: 'IN_PROGRESS', lock_owner: null, lock_expires_at: null });
    expect(pkg).toMatchObject({ status: 'PENDING', shipment_status: null });

    const again = await fos(['fulfill', 'run', f.fo.id, ...UPLOAD]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`package ${pkg.id} taken over`); // the open package is taken over, not made again
    expect(again.lines[0]).toMatchObject({ status: 'fulfilled', package_id: pkg.id, tracking_code: '1Z999' });
    expect(await packagesOf(f.fo.id)).toHaveLength(1);
  });

  it('a lock held by someone else fails at the lock step and changes nothing', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    expect(
      (await t.call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { body: { lock_owner: 'someone-else', timeout_minutes: 5 } }))
        .statusCode,
    ).toBe(200);
    const r = await fos(['fulfill', 'run', f.fo.id, ...UPLOAD]);
    expect(r.code).toBe(5);
    expect(r.lines[0]).toMatchObject({ status: 'failed', step: 'lock', state: 'nothing changed', error: { kind: 'lock-held' } });
    expect(await foOf(f.fo.id)).toMatchObject({ lock_owner: 'someone-else' });
    expect(await packagesOf(f.fo.id)).toHaveLength(0);
  });

  it('--dry-run shows the plan and writes nothing', async () => {
    const f = await fulfillmentFixture(t, {
      lines: [
        { sku: 'DRY-1', quantity: 2 },
        { sku: 'DRY-2', quantity: 1 },
      ],
    });
    const before = await foOf(f.fo.id);
    const events = await t.db.prisma.outboxEvent.count();
    const r = await fos(['fulfill', 'run', f.order.id, '--dry-run', '--rate-strategy', 'CHEAPEST']);
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      expect.objectContaining({
        fulfillment_order_id: f.fo.id,
        status: 'planned',
        accept: true,
        label: 'buy (CHEAPEST)',
        items: [
          { sku: 'DRY-1', name: 'Product DRY-1', quantity: 2 },
          { sku: 'DRY-2', name: 'Product DRY-2', quantity: 1 },
        ],
      }),
    ]);
    expect(r.stderr).toContain('would accept (PENDING), lock, pack DRY-1 ×2, DRY-2 ×1');
    expect(r.stderr).toContain('dry run (nothing written)');
    const after = await foOf(f.fo.id);
    expect(after).toEqual(before);
    expect(await packagesOf(f.fo.id)).toHaveLength(0);
    expect(await t.db.prisma.outboxEvent.count()).toBe(events);
    // The rate strategy's options (docs/automation.md "Rate strategies"), and their usage errors (exit 2).
    const within = await fos([
      'fulfill',
      'run',
      f.order.id,
      '--dry-run',
      '--rate-strategy',
      'cheapest_within_days',
      '--within-days',
      '3',
      '--exclude-carrier',
      'dhl,fedex',
    ]);
    expect(within.code, within.stderr).toBe(0);
    expect(within.lines[0].label).toBe('buy (CHEAPEST_WITHIN_DAYS, within 3 days, not dhl, fedex)');
    for (const [args, message] of [
      [['--rate-strategy', 'cheapest_within_days'], '--rate-strategy cheapest_within_days needs --within-days <n>'],
      [['--rate-strategy', 'cheapest', '--within-days', '3'], '--within-days goes with --rate-strategy cheapest_within_days'],
      [['--rate-strategy', 'cheapest_within_days', '--within-days', '0'], 'a whole number of days from 1 to 60'],
    ] as const) {
      const bad = await fos(['fulfill', 'run', f.order.id, '--dry-run', ...args]);
      expect(bad.code, bad.stderr).toBe(2);
      expect(bad.stderr).toContain(message);
    }
  });

  it('takes the short ids tables show: of a fulfillment order as of an order (dry run)', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ sku: 'SHORT-1', quantity: 1 }] });
    for (const id of [f.fo.id, f.order.id]) {
      const r = await fos(['fulfill', 'run', id.slice(0, 28), '--dry-run', '--rate-strategy', 'CHEAPEST']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.lines).toEqual([expect.objectContaining({ fulfillment_order_id: f.fo.id, status: 'planned' })]);
    }
    const none = await fos(['fulfill', 'run', 'ffffffff-ff', '--dry-run', '--rate-strategy', 'CHEAPEST']);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('no order has order number ffffffff-ff (and no order id starts with it)');
  });

  it('batch from stdin: fulfilled, skipped and failed ids each give one NDJSON line; a re-run is safe', async () => {
    const ok = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const unknown = randomUUID();
    const stdin = JSON.stringify([{ id: ok.order.id }, { id: fulfilledFo }, { id: unknown }], null, 2); // `--json id` when piped
    const r = await fos(['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST', '--concurrency', '2'], { stdin, stderrTTY: true });
    expect(r.code, r.stderr).toBe(4); // the only failure is a not-found
    expect(r.lines).toHaveLength(3);
    const byInput = Object.fromEntries(r.lines.map((l) => [l.input, l]));
    expect(byInput[ok.order.id]).toMatchObject({ status: 'fulfilled', fulfillment_order_id: ok.fo.id });
    expect(byInput[ok.order.id].tracking_code).toMatch(/^UPS/);
    expect(byInput[fulfilledFo]).toMatchObject({ status: 'skipped', reason: 'already fulfilled', fulfillment_order_id: fulfilledFo });
    expect(byInput[unknown]).toMatchObject({
      status: 'failed',
      step: 'resolve',
      fulfillment_order_id: null,
      error: { kind: 'not-found', exit_code: 4 },
    });
    expect(r.stderr).toMatch(/\[#{20}\] fulfilling: 1\/1 · 1 fulfilled · 1 skipped · 1 failed/); // progress bar on a TTY stderr
    expect(r.stderr).toContain('error: 1 of 3 failed');
    const packagesBefore = await t.db.prisma.package.count();

    const again = await fos(['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'], { stdin });
    expect(again.code).toBe(4);
    expect(again.lines.map((l) => [l.input, l.status])).toEqual(
      expect.arrayContaining([
        [ok.order.id, 'skipped'],
        [fulfilledFo, 'skipped'],
        [unknown, 'failed'],
      ]),
    );
    expect(again.lines).toHaveLength(3);
    expect(await t.db.prisma.package.count()).toBe(packagesBefore);
  });

  it('refuses an uploaded label for several fulfillment orders before writing anything', async () => {
    const { order, fos: ids } = await twoFoOrder();
    const r = await fos(['fulfill', 'run', order.id, ...UPLOAD]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('an uploaded label (--label-url, --tracking, …) is for one package');
    expect(r.stdout).toBe('');
    for (const id of ids) expect(await packagesOf(id)).toHaveLength(0);
  });

  it('without a label option, refuses an order whose package needs a label, before writing anything', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const r = await fos(['fulfill', 'run', f.fo.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`order ${f.order.order_number}: a new package will need a label: a label is needed`);
    expect(r.lines[0]).toMatchObject({ status: 'failed', step: 'plan', state: 'nothing changed' });
    expect(await packagesOf(f.fo.id)).toHaveLength(0);
    expect(await foOf(f.fo.id)).toMatchObject({ status: 'ACCEPTED', lock_owner: null });
  });

  it('without a label option, ships the packages labelled already (a label batch, the station --print)', async () => {
    await addRate('Ground', 4);
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const made = await t.call('POST', '/v1/ops/packages', {
      body: {
        fulfillment_order_id: f.fo.id,
        weight: 400,
        weight_unit: 'G',
        package_line_items: [{ core_fulfillment_order_line_item_id: f.foLines[0].id, quantity: 1 }],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const labelled = await t.call('POST', `/v1/ops/packages/${made.json().id}/label`, { body: { rate_strategy: 'CHEAPEST' } });
    expect(labelled.statusCode, labelled.body).toBe(200);
    const r = await fos(['fulfill', 'run', f.fo.id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines[0]).toMatchObject({
      status: 'fulfilled',
      package_id: made.json().id,
      steps: expect.arrayContaining(['already labelled']),
    });
    expect(await foOf(f.fo.id)).toMatchObject({ status: 'FULFILLED' });
  });
});

describe('--from input', () => {
  it('accepts a JSON array, NDJSON and plain ids', () => {
    expect(parseIds('["a", {"id": "b"}]')).toEqual([
      { id: 'a', kind: 'any' },
      { id: 'b', kind: 'any' },
    ]);
    expect(parseIds('{"id":"p1","fulfillment_order_id":"f1"}\n{"order_id":"o1"}\n\n# comment\nx y,z\n"q"')).toEqual([
      { id: 'f1', kind: 'fulfillment-order' },
      { id: 'o1', kind: 'order' },
      { id: 'x', kind: 'any' },
      { id: 'y', kind: 'any' },
      { id: 'z', kind: 'any' },
      { id: 'q', kind: 'any' },
    ]);
    expect(() => parseIds('{"name": 1}')).toThrow(/line 1 has no id/);
  });
});

describe('rate limits', () => {
  it("waits out a 429 on a write through the client's one retry policy, for the seconds the server asks", async () => {
    const fake = new FakeApi('fos_k');
    let calls = 0;
    fake.on('POST', '/v1/ops/fulfillment-orders/:id/lock', () => {
      if (++calls === 1) {
        const p = problem(429, 'rate-limited', 'Too Many Requests', 'Rate limit exceeded.');
        return { ...p, headers: { ...p.headers, 'retry-after': 1, 'x-ratelimit-reset': 1, 'x-ratelimit-remaining': 0 } };
      }
      return { body: { success: true, lock_owner: 'me', expires_at: null } };
    });
    const baseUrl = await fake.start();
    const waits: string[] = [];
    const client = new ApiClient({ credentials: { baseUrl, apiKey: 'fos_k' }, onRetry: (n) => waits.push(`${n.reason} ${n.delayMs}`) });
    try {
      const res = await new FulfillApi(client).lock('fo-1', 'me', 15);
      expect(res.success).toBe(true);
      expect(calls).toBe(2);
      expect(waits).toEqual(['HTTP 429 1000']);
    } finally {
      await client.close();
      await fake.stop();
    }
  });
});

describe('a cheap label slower than the order asks', () => {
  it('warns for an Overnight order (and a CRITICAL one) whose cheapest service takes days, not for a Ground order', async () => {
    const rate = await t.call('POST', '/v1/ops/carrier-rates', {
      body: {
        carrier_id: 'usps',
        carrier_name: 'USPS',
        service_id: 'economy',
        service_name: 'Economy',
        amount: 1,
        per_unit_weight: 0.0001,
        weight_unit: 'G',
        countries: ['US'],
        estimated_days: 6,
      },
    });
    expect(rate.statusCode).toBe(201);
    const cases: [Record<string, unknown>, RegExp | null][] = [
      [
        { shipping_method: 'Overnight' },
        /cheapest service \(USPS Economy\) takes about 6 day\(s\), but its shipping method "Overnight" asks for 1/,
      ],
      [{ priority: 'CRITICAL', shipping_method: null }, /but its priority CRITICAL asks for 1/],
      [{ shipping_method: 'Ground' }, null],
    ];
    for (const [order, warning] of cases) {
      const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
      await t.db.prisma.order.update({ where: { id: f.order.id }, data: order });
      const r = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST']);
      expect(r.code, r.stderr).toBe(0);
      if (warning) expect(r.stderr).toMatch(warning);
      else expect(r.stderr).not.toMatch(/takes about/);
    }
  });
});
