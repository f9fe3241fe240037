import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

// Issue 34: from packed to shipped in one step (`ship` after done, --ship), a short pack never
// ships, and `fos fulfill run` takes over the station's package (its dry run shows the same steps),
// refuses a shortfall (exit 5) and ships the found units with --partial. bin/fos.js, piped input.

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  await ensureCliBundle();
  ({ t, env } = await cliServer());
  env = { ...env, FOS_CONFIG_DIR: await tempConfigDir(), FOS_LOCK_OWNER: 'station-test' };
  const rate = await t.call('POST', '/v1/ops/carrier-rates', {
    token: env.FOS_API_KEY,
    body: {
      carrier_id: 'ups',
      carrier_name: 'UPS',
      service_id: 'ground',
      service_name: 'Ground',
      amount: 5,
      per_unit_weight: 0,
      weight_unit: 'G',
      estimated_days: 3,
    },
  });
  expect(rate.statusCode).toBe(201);
}, 300_000);
afterAll(() => t?.close());

const fos = (args: string[], stdin = '') => spawnFos(args, env, stdin);
const foOf = (id: string) => t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id }, include: { line_items: true } });
const packagesOf = (id: string) => t.db.prisma.package.findMany({ where: { fulfillment_order_id: id }, include: { line_items: true } });
const LABEL = ['--rate-strategy', 'CHEAPEST', '--weight', '500', '--weight-unit', 'G'];
/** The JSON records the station wrote on stdout, one after the other. */
const jsonRecords = (stdout: string): any[] => JSON.parse(`[${stdout.trim().replace(/\n\}\n\{/g, '\n},\n{')}]`);

describe('fos pack ships the closed box', () => {
  it('ship after done: labelled, fulfilled, lock released', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const sku = f.foLines[0].sku!;
    const r = await fos(['pack', '--fo', f.fo.id, ...LABEL], `${sku}\n${sku}\ndone\nship\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Shipped: order ${f.order.order_number}`);
    // stdout (a pipe): the box as closed, then as shipped, with its tracking number.
    const [closed, shipped] = jsonRecords(r.stdout);
    expect(closed).toMatchObject({ status: 'PENDING', shipping_label: null });
    expect(shipped).toMatchObject({ id: closed.id, status: 'FULFILLED', tracking_number: expect.any(String) });
    const [pkg] = await packagesOf(f.fo.id);
    expect(pkg).toMatchObject({ status: 'FULFILLED' });
    expect(pkg.shipping_label_id).not.toBeNull();
    expect(await foOf(f.fo.id)).toMatchObject({ status: 'FULFILLED', lock_owner: null });
  }, 120_000);

  it('ship after a close that labelled the box (--print-dir; --label-dir, its first name, too): no second label bought', async () => {
    for (const flag of ['--print-dir', '--label-dir']) {
      const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
      const sku = f.foLines[0].sku!;
      const dir = await mkdtemp(path.join(tmpdir(), 'fos-labels-'));
      const r = await fos(['pack', '--fo', f.fo.id, flag, dir, ...LABEL], `${sku}\ndone\nship\n`);
      expect(r.code, r.stderr).toBe(0);
      const [labelled, shipped] = jsonRecords(r.stdout);
      expect(labelled).toMatchObject({ shipment_status: 'LABEL_PRINTED', tracking_number: expect.any(String) });
      expect(shipped).toMatchObject({ id: labelled.id, status: 'FULFILLED' });
      expect(r.stderr).toContain('Label saved:');
      expect(await readdir(dir)).toHaveLength(1);
      expect(r.stderr).toContain(`Shipped: order ${f.order.order_number}`);
      expect(r.stderr).not.toContain('already has a shipping label');
      expect(await packagesOf(f.fo.id)).toMatchObject([{ status: 'FULFILLED' }]);
    }
  }, 120_000);

  it('--ship: stdout gets each box once, as shipped', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const r = await fos(['pack', '--fo', f.fo.id, '--ship', ...LABEL], `${f.foLines[0].sku!}\ndone\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(jsonRecords(r.stdout)).toMatchObject([{ status: 'FULFILLED', tracking_number: expect.any(String) }]);
  }, 120_000);

  it('a fulfillment order whose every unit is short: fulfill run says to cancel it or count again, not --partial', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const sku = f.foLines[0].sku!;
    const packed = await fos(['pack', '--fo', f.fo.id, ...LABEL], 'short 1\nquit\n');
    expect(packed.stderr).toContain(`Short: 1 x ${sku} recorded missing`);
    const refused = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST']);
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toContain(`${sku} short 1 (found 0)`);
    expect(refused.stderr).toContain(`nothing was found to ship: cancel it (fos fulfillment-orders cancel ${f.fo.id})`);
    expect(refused.stderr).not.toContain('--partial ships');
  }, 120_000);

  it('--ship ships every close; a short pack records the shortfall and is not shipped', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const sku = f.foLines[0].sku!;
    const r = await fos(['pack', '--fo', f.fo.id, '--ship', ...LABEL], `short 1\n${sku}\ndone\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(jsonRecords(r.stdout)).toMatchObject([{ status: 'PENDING' }]); // not shipped: the box as packed
    expect(r.stderr).toContain(`Short: 1 x ${sku} recorded missing`);
    expect(r.stderr).toContain(`Not shipped: order ${f.order.order_number} has ${sku} short 1`);
    const pkgs = await packagesOf(f.fo.id);
    expect(pkgs.map((p) => [p.status, p.line_items.map((l) => l.quantity)])).toEqual([['PENDING', [1]]]);
    expect((await foOf(f.fo.id)).line_items[0]).toMatchObject({ remaining_quantity: 2, short_quantity: 1 });

    // fulfill run refuses it (exit 5, naming the SKU and the shortfall), dry run included; nothing changes.
    for (const extra of [[], ['--dry-run']]) {
      const refused = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST', ...extra]);
      expect(refused.code, refused.stderr).toBe(5);
      expect(refused.stderr).toContain(`${sku} short 1 (found 1)`);
    }
    expect((await packagesOf(f.fo.id)).map((p) => p.status)).toEqual(['PENDING']);

    // --partial: the dry run's steps are the real run's; the found unit ships in the station's package.
    const plan = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST', '--partial', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout.trim());
    expect(planned.steps).toEqual([
      `split off the short units: ${sku} ×1`,
      'lock',
      `take over package ${pkgs[0].id} (${sku} ×1)`,
      'label: buy (CHEAPEST)',
      'fulfill',
    ]);
    const run = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST', '--partial']);
    expect(run.code, run.stderr).toBe(0);
    const done = JSON.parse(run.stdout.trim());
    expect(done).toMatchObject({ status: 'fulfilled', package_id: pkgs[0].id, steps: planned.steps });
    const after = await packagesOf(f.fo.id);
    expect(after.map((p) => [p.status, p.line_items.map((l) => l.quantity)])).toEqual([['FULFILLED', [1]]]);
    expect(await foOf(f.fo.id)).toMatchObject({ status: 'FULFILLED' });
    const rest = await t.db.prisma.fulfillmentOrder.findMany({
      where: { order_id: f.order.id, id: { not: f.fo.id } },
      include: { line_items: true },
    });
    expect(rest.map((r) => [r.status, r.line_items.map((l) => [l.sku, l.remaining_quantity, l.short_quantity])])).toEqual([
      ['PENDING', [[sku, 1, 0]]],
    ]);
  }, 180_000);

  it('fulfill run takes over a box packed at the station: no second package; the dry run says so', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }, { quantity: 1 }], status: 'ACCEPTED' });
    const [a, b] = [f.foLines[0].sku!, f.foLines[1].sku!];
    const packed = await fos(['pack', '--fo', f.fo.id, '--weight', '400', '--weight-unit', 'G'], `2*${a}\ndone\n`);
    expect(packed.code, packed.stderr).toBe(0);
    const [pkg] = await packagesOf(f.fo.id);
    const plan = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    const steps = [
      'lock',
      `take over package ${pkg.id} (${a} ×2)`,
      'label: buy (CHEAPEST)',
      'fulfill',
      `pack ${b} ×1`,
      'label: buy (CHEAPEST)',
      'fulfill',
    ];
    expect(JSON.parse(plan.stdout.trim()).steps).toEqual(steps);
    const run = await fos(['fulfill', 'run', f.fo.id, '--rate-strategy', 'CHEAPEST']);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim());
    expect(out).toMatchObject({ status: 'fulfilled', steps });
    expect(out.package_ids[0]).toBe(pkg.id);
    const all = await packagesOf(f.fo.id);
    expect(all).toHaveLength(2);
    expect(all.every((p) => p.status === 'FULFILLED')).toBe(true);
    expect(await foOf(f.fo.id)).toMatchObject({ status: 'FULFILLED', lock_owner: null });
  }, 180_000);

  it('exits 1 when nothing was packed', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const r = await fos(['pack', '--fo', f.fo.id, '--weight', '1'], 'quit\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was packed');
  }, 60_000);
});
