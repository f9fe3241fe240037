// End to end: the built CLI (`node bin/fos.js`, `npm run build` first) against a listening test
// server: `fos orders hold|release|cancel|backorders` and `fos fulfillment-orders cancel`, each
// run as its own process, with the refusals' one-line messages and exit codes.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from '../api/orders.fixtures.js';
import { tempConfigDir } from '../cli/helpers/cli.js';

const root = path.resolve(import.meta.dirname, '../..');

function fos(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/fos.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let w: World;
let env: Record<string, string>;

beforeAll(async () => {
  const bundle = path.join(root, 'dist/cli.cjs');
  const source = path.join(root, 'src/cli/commands/orders/cancel.ts');
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < statSync(source).mtimeMs)
    throw new Error('dist/cli.cjs is older than the CLI sources: run `npm run build` first');
  w = await world();
  const address = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${address}/v1`, FOS_API_KEY: w.token, FOS_CONFIG_DIR: await tempConfigDir(), NO_COLOR: '1' };
}, 120_000);
afterAll(() => w?.t.close());

describe('fos orders hold | release | cancel | backorders, fos fulfillment-orders cancel (spawned)', () => {
  it('holds an order (lock refused, exit 5), releases it, cancels it by number', async () => {
    await w.product('CLI-EX-1', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('CLI-EX-1', 2)], payment_status: 'PAID' });
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id } });

    const hold = await fos([
      'orders',
      'hold',
      order.order_number,
      'fraud_review',
      '--notes',
      'billing and shipping differ',
      '--json',
      'id,reason,reason_notes,active',
    ]);
    expect(hold.code, hold.stderr).toBe(0);
    const h = JSON.parse(hold.stdout);
    expect(h).toMatchObject({ reason: 'FRAUD_REVIEW', reason_notes: 'billing and shipping differ', active: true });

    expect((await fos(['fulfillment-orders', 'accept', fo.id, '--json', 'status'])).code).toBe(0);
    const lock = await fos(['fulfillment-orders', 'lock', fo.id, '--owner', 'station-1']);
    expect(lock.code).toBe(5);
    expect(lock.stderr).toContain(`is on hold: FRAUD_REVIEW — billing and shipping differ (hold ${h.id})`);

    const rel = await fos(['orders', 'release', order.order_number, h.id, '--json', 'id,active']);
    expect(rel.code, rel.stderr).toBe(0);
    expect(JSON.parse(rel.stdout)).toEqual({ id: h.id, active: false });
    const again = await fos(['orders', 'release', order.order_number, h.id]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('was already released');

    const bad = await fos(['orders', 'hold', order.order_number, 'bored']);
    expect(bad.code).toBe(2);

    const unconfirmed = await fos(['orders', 'cancel', order.order_number, '--reason', 'CUSTOMER']);
    expect(unconfirmed.code).not.toBe(0);
    expect(unconfirmed.stderr).toContain('--yes');
    const noReason = await fos(['orders', 'cancel', order.order_number, '--yes']);
    expect(noReason.code).toBe(2);
    const cancel = await fos(['orders', 'cancel', order.order_number, '--reason', 'customer', '--yes', '--json', 'status,cancel_reason']);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(JSON.parse(cancel.stdout)).toEqual({ status: 'CANCELLED', cancel_reason: 'CUSTOMER' });
    const twice = await fos(['orders', 'cancel', order.order_number, '--reason', 'CUSTOMER', '--yes']);
    expect(twice.code).toBe(5);
    expect(twice.stderr).toContain('nothing left to cancel');
  });

  it('lists backorders in serving order and cancels a fulfillment order', async () => {
    await w.product('CLI-EX-2', { [w.east]: 1 });
    const low = await w.order({ line_items: [line('CLI-EX-2', 2)], payment_status: 'PAID', priority: 'LOW' });
    const critical = await w.order({ line_items: [line('CLI-EX-2', 2)], payment_status: 'PAID', priority: 'CRITICAL' });
    const list = await fos(['orders', 'backorders', '--sku', 'CLI-EX-2', '--json', 'order_number,quantity,priority']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { order_number: critical.order_number, quantity: 2, priority: 'CRITICAL' },
      { order_number: low.order_number, quantity: 1, priority: 'LOW' },
    ]);

    // Cancelling LOW's fulfillment order releases its unit: the CRITICAL order takes it at once.
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: low.id } });
    const cancel = await fos([
      'fulfillment-orders',
      'cancel',
      fo.id,
      '--reason',
      'INVENTORY',
      '--yes',
      '--json',
      'status,remaining_quantity',
    ]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(JSON.parse(cancel.stdout)).toEqual({ status: 'CANCELLED', remaining_quantity: 0 });
    const after = await fos(['orders', 'backorders', '--sku', 'CLI-EX-2', '--priority', 'critical', '--json', 'order_number,quantity']);
    expect(JSON.parse(after.stdout)).toEqual([{ order_number: critical.order_number, quantity: 1 }]);
  });

  it('splits a fulfillment order with --line and moves the new one to the other warehouse', async () => {
    await w.product('CLI-EX-3', { [w.east]: 5, [w.west]: 5 });
    const order = await w.order({ line_items: [line('CLI-EX-3', 3)], payment_status: 'PAID' });
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id }, include: { line_items: true } });
    const noLine = await fos(['fulfillment-orders', 'split', fo.id]);
    expect(noLine.code).toBe(2);
    expect(noLine.stderr).toContain('--line');
    const split = await fos([
      'fulfillment-orders',
      'split',
      fo.id,
      '--line',
      `${fo.line_items[0].id}=1`,
      '--json',
      'original.total_quantity,split.id,split.total_quantity',
    ]);
    expect(split.code, split.stderr).toBe(0);
    const s = JSON.parse(split.stdout);
    expect(s).toMatchObject({ original: { total_quantity: 2 }, split: { total_quantity: 1 } });
    const move = await fos(['fulfillment-orders', 'move', s.split.id, w.west, '--json', 'moved.id,moved.warehouse_name']);
    expect(move.code, move.stderr).toBe(0);
    expect(JSON.parse(move.stdout)).toEqual({ moved: { id: s.split.id, warehouse_name: 'West' } });
    expect(await w.level((await w.t.db.prisma.product.findFirstOrThrow({ where: { sku: 'CLI-EX-3' } })).id, w.west)).toMatchObject({
      committed: 1,
    });
  });

  it('edits an order: flags and an address from --data', async () => {
    await w.product('CLI-EX-4', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('CLI-EX-4', 1)], payment_status: 'PAID' });
    const r = await fos([
      'orders',
      'edit',
      order.order_number,
      '--shipping-method',
      'Express',
      '--tags',
      'vip,gift',
      '-F',
      'shipping_address.address1=9 Elm St',
      '-F',
      'shipping_address.city=Salem',
      '-F',
      'shipping_address.country=US',
      '--json',
      'shipping_method,tags,shipping_address_city',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ shipping_method: 'Express', tags: ['vip', 'gift'], shipping_address_city: 'Salem' });
    const empty = await fos(['orders', 'edit', order.order_number]);
    expect(empty.code).toBe(2);
  });

  it('edits line items: --add-line, --set-quantity, --remove-line; a packed line refused (exit 5)', async () => {
    await w.product('CLI-EX-5', { [w.east]: 5 });
    await w.product('CLI-EX-6', { [w.east]: 5 });
    await w.product('CLI-EX-7', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('CLI-EX-5', 2), line('CLI-EX-6', 1)], payment_status: 'PAID' });
    const [l5, l6] = await w.t.db.prisma.orderLineItem.findMany({
      where: { order_id: order.id, kind: 'CORE' },
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    });
    const r = await fos([
      'orders',
      'edit',
      order.order_number,
      '--add-line',
      'sku=CLI-EX-7,quantity=3,price=2.5',
      '--set-quantity',
      `${l5.id}=4`,
      '--remove-line',
      l6.id,
      '--json',
      'core_line_item_count,unique_core_line_item_count',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ core_line_item_count: 7, unique_core_line_item_count: 2 });
    const bad = await fos(['orders', 'edit', order.order_number, '--add-line', 'quantity=1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--add-line quantity=1: needs sku=/);
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id, status: 'PENDING' } });
    const pkg = await w.call('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo.id,
      weight: 100,
      weight_unit: 'G',
      package_line_items: [{ sku: 'CLI-EX-5', quantity: 1 }],
    });
    expect(pkg.statusCode, pkg.body).toBe(201);
    const packed = await fos(['orders', 'edit', order.order_number, '--remove-line', l5.id]);
    expect(packed.code).toBe(5);
    expect(packed.stderr.trim().split('\n')).toHaveLength(1);
    expect(packed.stderr).toMatch(/1 of its 4 units are packed or shipped/);
  });

  it("sets a delegation's rate card from a file: a new version each time", async () => {
    const m = await w.t.merchant();
    const file = path.join(tmpdir(), `card-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ id: 'rc-cli', name: 'CLI card', currency: 'USD', receiving: { rate_per_unit: 0.3 } }));
    const first = await fos([
      'delegations',
      'rate-card',
      'set',
      m.delegationId,
      file,
      '--json',
      'rate_card.semantic_version,rate_card.version_id',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const second = await fos([
      'delegations',
      'rate-card',
      'set',
      m.delegationId,
      file,
      '--json',
      'rate_card.semantic_version,rate_card.version_id',
    ]);
    const [a, b] = [JSON.parse(first.stdout).rate_card, JSON.parse(second.stdout).rate_card];
    expect([a.semantic_version, b.semantic_version]).toEqual(['1.0.0', '1.0.1']);
    expect(a.version_id).not.toBe(b.version_id);
    const list = await fos(['delegations', 'list', '--json', 'id,rate_card.name']);
    expect(JSON.parse(list.stdout)).toContainEqual({ id: m.delegationId, rate_card: { name: 'CLI card' } });
    const missing = await fos(['delegations', 'rate-card', 'set', m.delegationId, '/nonexistent/card.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read /nonexistent/card.json');
  });
});
