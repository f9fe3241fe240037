import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from '../api/orders.fixtures.js';
import { httpCall } from '../api/inventory.fixtures.js';
import { runCli } from './helpers/cli.js';
import { ptySpawn } from './helpers/pty.js';

// `fos pick <session>` on a real 80x24 pseudo-terminal, spawned as users run it (bin/fos.js), with
// scanned lines typed as a USB scanner types them (the code, then Enter). The first run (Node 20)
// picks one bin, rings the bell on a bad scan, undoes a scan and quits unfinished (exit 1); the
// second run (Node 24) resumes from what the server holds, refuses a wrong bin and completes (exit 0).

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/fos.js');
const NODE24 = process.env.FOS_TEST_NODE24 ?? '/root/.npm/_npx/387698761821791d/node_modules/node/bin/node';

let w: World;
let env: Record<string, string>;
let session: string;
beforeAll(async () => {
  w = await world();
  const base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: w.token };
  const http = (method: string, p: string, body?: unknown) => httpCall(base, w.token, method, p, body);
  expect(
    (
      await http('POST', '/v1/ops/locations/bulk', {
        warehouse_id: w.east,
        locations: [{ name: 'A-01', barcode: 'LOC-A01' }, { name: 'A-02' }],
      })
    ).status,
  ).toBe(201);
  for (const [sku, barcode, bin] of [
    ['PK-1', '111', 'A-01'],
    ['PK-2', '222', 'A-02'],
  ]) {
    const id = await w.product(sku);
    await w.t.db.prisma.product.update({ where: { id }, data: { barcode } });
    const po = await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku, quantity: 5 }] });
    expect(
      (await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, { location: bin, lines: [{ sku, quantity: 5 }] })).status,
    ).toBe(200);
  }
  const order = await w.order({ line_items: [line('PK-1', 2), line('PK-2', 1)], payment_status: 'PAID' });
  const [fo] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
  expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
  const created = await runCli(['picking-sessions', 'create', '--name', 'PT', fo.id, '--format', 'json'], { env });
  expect(created.code, created.stderr).toBe(0);
  session = JSON.parse(created.stdout).id;
});
afterAll(() => w?.t.close());

const plain = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n/g, '\n');

function station(node: string) {
  return ptySpawn([node, bin, 'pick', session], {
    env: { PATH: process.env.PATH, HOME: root, FOS_CONFIG_DIR: path.join(root, '.tmp', 'pick-pty'), ...env },
  });
}

describe('fos pick on a terminal', () => {
  it('picks with a scanner, rings on a bad scan, undoes, quits, then resumes on Node 24 and completes', async () => {
    const first = station(process.execPath);
    await first.waitFor('scan bin ›');
    expect(plain(first.output())).toMatch(/BIN\s+A-01/);
    expect(plain(first.output())).toMatch(/TAKE\s+2 × PK-1/);
    first.type('LOC-A01\r');
    await first.waitFor('scan item ›');
    first.type('111\r');
    await first.waitFor('→ tote PT-01');
    first.type('NOPE-9\r');
    await first.waitFor('Unknown barcode');
    expect(first.output()).toContain('\x07');
    expect(first.output()).toMatch(/\x1b\[31m/); // red
    first.type('undo\r');
    await first.waitFor('last scan undone');
    first.type('2*111\r');
    await first.waitFor('1/2 rows done');
    first.type('quit\r');
    await first.waitFor('again to resume');
    first.end();
    const one = await first.done;
    expect(one.code, one.output).toBe(1);
    expect(plain(one.output)).toMatch(/run `fos pick` again to resume/);
    for (const l of plain(one.output).split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);

    const second = station(existsSync(NODE24) ? NODE24 : process.execPath);
    await second.waitFor('scan bin ›');
    expect(plain(second.output())).toMatch(/BIN\s+A-02/); // resumed: A-01 is done
    expect(plain(second.output())).toMatch(/1\/2 rows done/);
    second.type('A-01\r');
    await second.waitFor('scan item ›');
    second.type('222\r');
    await second.waitFor('Wrong bin');
    expect(second.output()).toContain('\x07');
    second.type('A-02\r');
    await second.waitFor('scan item ›');
    second.type('222\r');
    await second.waitFor('SESSION COMPLETE');
    second.end();
    const two = await second.done;
    expect(two.code, two.output).toBe(0);
    expect(plain(two.output)).toContain('SESSION COMPLETE');
    const list = await w.t.db.prisma.pickScan.findMany({ where: { picking_session_id: session } });
    expect(list.map((s) => s.quantity).sort()).toEqual([1, 2]);
  }, 120_000); // two CLI processes on a loaded machine: a budget, not a timing assumption

  it('piped: one JSON line per scan on stdout, exit 1 when stdin ends unfinished, 0 once complete', async () => {
    const order = await w.order({ line_items: [line('PK-1', 1), line('PK-2', 1)], payment_status: 'PAID' });
    const [fo] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
    expect((await w.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).statusCode).toBe(200);
    const s = await w.call('POST', '/v1/ops/picking-sessions', { fulfillment_order_ids: [fo.id] });
    const id = s.json().id;
    const part = await runCli(['pick', id], { env, stdin: 'A-01\n111\n' });
    expect(part.code, part.stderr).toBe(1);
    expect(part.stderr).toMatch(/stdin closed before the session was complete/);
    const lines = part.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ location_name: 'A-01', sku: 'PK-1', quantity: 1, short: false })]);
    const rest = await runCli(['pick', id], { env, stdin: 'A-02\nshort 1\n' });
    expect(rest.code, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout.trim())).toMatchObject({ location_name: 'A-02', short: true });
    expect(rest.stderr).toMatch(/SESSION COMPLETE[^]*short: 1 × PK-2/);
  });
});
