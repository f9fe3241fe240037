// `fos labels batch` through the spawned `bin/fos.js` against a real server: a batch of
// fulfillment orders buys each label once, saves one merged PDF in the order given, and run again buys
// nothing (every package SKIPPED); a package that cannot be labelled makes it exit 5 naming it; the
// rate strategy flags (--within-days, --exclude-carrier) choose the rate;
// `fos labels batches` and `batch-get` show the batches.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { fixtureWarehouse, fulfillmentFixture } from '../helpers/fixtures.js';
import { pdfText } from '../helpers/pdf.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let token: string;
let env: Record<string, string>;
let warehouse: string;

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer();
  t = s.t;
  token = s.token;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  warehouse = await fixtureWarehouse(t);
  const rate = await call('POST', '/v1/ops/carrier-rates', {
    carrier_id: 'ups',
    carrier_name: 'UPS',
    service_id: 'ground',
    service_name: 'Ground',
    amount: 5,
    weight_unit: 'G',
    estimated_days: 3,
  });
  expect(rate.statusCode, rate.body).toBe(201);
}, 300_000);
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function packed() {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED', warehouseId: warehouse });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    weight: 900,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  return { id: p.json().id as string, foId: f.fo.id as string, orderId: f.order.id as string };
}

describe('fos labels batch (spawned)', () => {
  it('labels a list of fulfillment orders once, saves one PDF in their order; run again, buys nothing', async () => {
    const boxes = [await packed(), await packed(), await packed()];
    const dir = await mkdtemp(path.join(tmpdir(), 'fos-batch-'));
    const out = path.join(dir, 'wave.pdf');
    const args = ['labels', 'batch', '--fulfillment-order', ...boxes.map((b) => b.foId), '--json', 'status,bought,skipped,items'];
    const first = await spawnFos([...args, '--output', out], env);
    expect(first.code, first.stderr).toBe(0);
    const b = JSON.parse(first.stdout);
    expect(b).toMatchObject({ status: 'COMPLETED', bought: 3, skipped: 0 });
    expect(b.items.map((i: { package_id: string }) => i.package_id)).toEqual(boxes.map((x) => x.id));
    expect(first.stderr).toContain(`saved ${out}`);
    const pdf = await readFile(out);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(3);
    const text = await pdfText(pdf);
    const at = b.items.map((i: { tracking_number: string }) => text.indexOf(i.tracking_number));
    expect(at.every((x: number) => x >= 0) && at[0] < at[1] && at[1] < at[2]).toBe(true);

    const again = await spawnFos(args, env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'COMPLETED', bought: 0, skipped: 3 });
    expect(await t.db.prisma.shippingLabel.count({ where: { package_id: { in: boxes.map((x) => x.id) } } })).toBe(3);
  });

  it('exits 5 naming a package that could not be labelled; lists and shows batches', async () => {
    const [ok, held] = [await packed(), await packed()];
    expect((await call('POST', `/v1/ops/orders/${held.orderId}/holds`, { reason: 'MANUAL' })).statusCode).toBe(201);
    const r = await spawnFos(['labels', 'batch', '--package', ok.id, held.id, '--json', 'id,bought,failed'], env);
    expect(r.code).toBe(5);
    const b = JSON.parse(r.stdout);
    expect(b).toMatchObject({ bought: 1, failed: 1 });
    expect(r.stderr).toMatch(new RegExp(`^error: 1 of 2 labels failed \\(package ${held.id}: .*hold`, 'm'));

    const list = await spawnFos(['labels', 'batches', '--status', 'completed', '--json', 'id,failed'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)[0]).toEqual({ id: b.id, failed: 1 });
    const get = await spawnFos(['labels', 'batch-get', b.id.slice(0, 13), '--json', 'items.status'], env);
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout)).toEqual({ items: [{ status: 'BOUGHT' }, { status: 'FAILED' }] });
    const bad = await spawnFos(['labels', 'batch', '--package', ok.id, '--session', 'x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('name the packages one way');
  });

  it('--rate-strategy cheapest_within_days --within-days and --exclude-carrier choose the rate; none left: exit 5 saying why', async () => {
    const rate = await call('POST', '/v1/ops/carrier-rates', {
      carrier_id: 'usps',
      carrier_name: 'USPS',
      service_id: 'priority',
      service_name: 'Priority',
      amount: 8,
      estimated_days: 1,
    });
    expect(rate.statusCode, rate.body).toBe(201);
    const [a, b] = [await packed(), await packed()];
    const fast = await spawnFos(
      [
        'labels',
        'batch',
        '--package',
        a.id,
        '--rate-strategy',
        'cheapest_within_days',
        '--within-days',
        '1',
        '--json',
        'rate_within_days,items',
      ],
      env,
    );
    expect(fast.code, fast.stderr).toBe(0);
    expect(JSON.parse(fast.stdout)).toMatchObject({
      rate_within_days: 1,
      items: [{ status: 'BOUGHT', carrier_id: 'usps', service_id: 'priority' }],
    });
    const none = await spawnFos(
      ['labels', 'batch', '--package', b.id, '--rate-strategy', 'cheapest_within_days', '--within-days', '1', '--exclude-carrier', 'usps'],
      env,
    );
    expect(none.code).toBe(5);
    expect(none.stderr).toMatch(
      /No rate is left by the rate strategy: of 2 matching rates, 1 left out by rate_exclude_carrier_ids \(usps\); 1 slower than 1 days/,
    );
    const usage = await spawnFos(['labels', 'batch', '--package', b.id, '--within-days', '2'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--within-days goes with --rate-strategy cheapest_within_days');
  });
});
