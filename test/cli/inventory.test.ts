import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from '../api/orders.fixtures.js';
import { fulfillOrder, httpCall } from '../api/inventory.fixtures.js';
import { runCli } from './helpers/cli.js';

// `fos inventory …` and `fos purchase-orders …` through the real command tree against a real
// server: stock in by purchase order, counts and adjustments, the ledger, low stock, and CSV
// imports with bad rows (row-numbered, nothing sent), batches and a refusal mid-file.

let w: World;
let env: Record<string, string>;
let dir: string;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: w.token };
  dir = await mkdtemp(path.join(tmpdir(), 'fos-inv-'));
});
afterAll(() => w?.t.close());

const fos = (...args: string[]) => runCli(args, { env });
const json = async (...args: string[]) => {
  const r = await fos(...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('fos purchase-orders and fos inventory', () => {
  it('brings stock in by purchase order, counts and adjusts it, and shows the ledger', async () => {
    const p = await w.product('CLI-MUG');
    const po = await json('purchase-orders', 'create', '--warehouse', w.east, '--reference', 'PO-77', 'CLI-MUG=50');
    expect(po).toMatchObject({ status: 'OPEN', reference: 'PO-77', total_open: 50 });
    const receipt = await json(
      'purchase-orders',
      'receive',
      po.id,
      'CLI-MUG=45',
      '--damaged',
      'CLI-MUG=2',
      '--lot',
      'L-9',
      '--expires',
      '2027-01-31',
    );
    expect(receipt).toMatchObject({ units: 47, purchase_order: { status: 'PARTIALLY_RECEIVED', total_open: 3 } });
    const closed = await fos('purchase-orders', 'close', po.id, '--yes', '--format', 'json');
    expect(closed.code, closed.stderr).toBe(0);
    expect(JSON.parse(closed.stdout)).toMatchObject({ status: 'CLOSED' });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 47, unavailable: 2, on_order: 0 });

    const counted = await json('inventory', 'count', '--warehouse', w.east, 'CLI-MUG=44');
    expect(counted).toMatchObject({ reason: 'CYCLE_COUNT', lines: [{ sku: 'CLI-MUG', delta: -3, on_hand: 44 }] });
    const adjusted = await json('inventory', 'adjust', '--warehouse', w.east, '--reason', 'damaged', 'CLI-MUG:-2', '--note', 'binned');
    expect(adjusted.lines[0]).toMatchObject({ on_hand: 42, unavailable: 0 });
    const levels = await json('inventory', 'list', '--sku', 'CLI-MUG');
    expect(levels).toEqual([expect.objectContaining({ warehouse_name: 'East', on_hand: 42, available: 42 })]);
    const moves = await json('inventory', 'movements', '--sku', 'CLI-MUG', '--kind', 'RECEIVED,COUNTED');
    expect(moves.map((m: any) => m.kind)).toEqual(expect.arrayContaining(['COUNTED', 'RECEIVED']));
    expect(moves.find((m: any) => m.kind === 'RECEIVED' && m.bucket === 'on_hand')).toMatchObject({
      lot_code: 'L-9',
      expiration_date: '2027-01-31',
    });

    await w.t.db.prisma.product.update({ where: { id: p }, data: { minimum_level: 50, maximum_level: 100 } });
    const low = await json('inventory', 'low-stock');
    expect(low.find((l: any) => l.sku === 'CLI-MUG')).toMatchObject({ reorder_quantity: 58 });
  });

  it('says what is wrong with typed lines and missing flags (exit 2), and a refused adjustment exits 5', async () => {
    await w.product('CLI-ERR', { [w.east]: 1 });
    const bad = await fos('inventory', 'adjust', '--warehouse', w.east, '--reason', 'FOUND', 'CLI-ERR:two');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"CLI-ERR:two": expected SKU:DELTA/);
    const none = await fos('inventory', 'count', '--warehouse', w.east);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/at least one line, e\.g\. MUG-BLUE=40/);
    const reason = await fos('inventory', 'adjust', '--warehouse', w.east, '--reason', 'STOLEN', 'CLI-ERR:1');
    expect(reason.code).toBe(2);
    expect(reason.stderr).toMatch(/CYCLE_COUNT/);
    const refused = await fos('inventory', 'adjust', '--warehouse', w.east, '--reason', 'LOST', 'CLI-ERR:-5');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/on_hand 1/);
  });
});

describe('fos inventory transfer and fos returns', () => {
  it('ships between warehouses and receives; takes a return by order number and restocks or sets aside', async () => {
    const p = await w.product('CLI-TR', { [w.east]: 10 });
    const t = await json('inventory', 'transfer', '--from', w.east, '--to', w.west, 'CLI-TR=4');
    expect(t).toMatchObject({ status: 'IN_TRANSIT', total_quantity: 4 });
    const got = await json('inventory', 'transfers', 'receive', t.id, 'CLI-TR=3', '--damaged', 'CLI-TR=1');
    expect(got).toMatchObject({ status: 'RECEIVED', lines: [{ quantity_received: 4, quantity_damaged: 1 }] });
    expect(await w.level(p, w.west)).toMatchObject({ on_hand: 4, unavailable: 1 });
    expect((await json('inventory', 'transfers', 'list', '--status', 'RECEIVED')).map((x: any) => x.id)).toContain(t.id);

    const order = await w.order({ line_items: [line('CLI-TR', 2)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, (m, p2, b) => httpCall(base, w.token, m, p2, b), order.id)).toEqual([200]);
    const ret = await json('returns', 'create', order.order_number, 'CLI-TR=2', '--reason', 'defective', '--reference', 'RMA-5');
    expect(ret).toMatchObject({ order_id: order.id, status: 'OPEN', reference: 'RMA-5', lines: [{ quantity: 2, reason: 'DEFECTIVE' }] });
    const back = await json('returns', 'receive', ret.id, 'CLI-TR=1', '--damaged', 'CLI-TR=1');
    expect(back).toMatchObject({ status: 'RECEIVED', lines: [{ quantity_restocked: 1, quantity_damaged: 1 }] });
    const more = await fos('returns', 'create', order.id, 'CLI-TR=1');
    expect(more.code).toBe(5);
    expect(more.stderr).toMatch(/only 0 of CLI-TR/);
  });
});

describe('fos inventory import', () => {
  it('refuses a file with bad rows, listing each by row number, and sends nothing', async () => {
    const p = await w.product('CSV-OK', { [w.east]: 5 });
    const file = path.join(dir, 'bad.csv');
    await writeFile(file, 'SKU,On Hand,Bin\nCSV-OK,9,A1\n,3,A2\nCSV-X,ten,A3\nCSV-Y,-1,A4\nCSV-OK,4,A5\n');
    const r = await fos('inventory', 'import', file, '--warehouse', w.east);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/4 row\(s\) cannot be imported, nothing was sent/);
    expect(r.stderr).toMatch(/row 3: no sku/);
    expect(r.stderr).toMatch(/row 4: counted "ten"/);
    expect(r.stderr).toMatch(/row 5: counted "-1"/);
    expect(r.stderr).toMatch(/row 6: CSV-OK is already on row 2/);
    expect((await w.level(p, w.east))!.on_hand).toBe(5);
  });

  it('imports 2,001 counts in three requests (each checked first); --dry-run changes nothing', async () => {
    const n = 2001;
    await w.t.db.prisma.product.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        team_id: w.merchantId,
        merchant_team_id: w.merchantId,
        fulfiller_team_id: w.t.teamId,
        name: `Csv ${i}`,
        sku: `CSV-${i}`,
        measurement_unit: 'MM',
        weight_unit: 'G',
      })),
    });
    const file = path.join(dir, 'counts.csv');
    await writeFile(file, `sku,counted\n${Array.from({ length: n }, (_, i) => `CSV-${i},${i % 10}`).join('\n')}\n`);
    const dry = await fos('inventory', 'import', file, '--warehouse', w.west, '--dry-run', '--format', 'json');
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: n, requests: 3, applied: 0, dry_run: true });
    expect(JSON.parse(dry.stdout).lines[1234]).toEqual({
      row: 1236,
      sku: 'CSV-1234',
      warehouse: expect.any(String),
      before: 0,
      after: 4,
      delta: 4,
      available_after: 4,
    });
    expect(await w.t.db.prisma.inventoryLevel.count({ where: { warehouse_id: w.west, product: { sku: { startsWith: 'CSV-' } } } })).toBe(0);
    const r = await fos('inventory', 'import', file, '--warehouse', w.west, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: n, requests: 3, applied: n, reason: 'CYCLE_COUNT' });
    expect(JSON.parse(r.stdout).adjustment_ids).toHaveLength(3);
    expect(JSON.parse(r.stdout).lines).toHaveLength(n);
    expect(JSON.parse(r.stdout).lines[1999]).toMatchObject({ row: 2001, sku: 'CSV-1999', before: 0, after: 9, delta: 9 });
    const sum = await w.t.db.prisma.inventoryLevel.aggregate({
      where: { warehouse_id: w.west, product: { sku: { startsWith: 'CSV-' } } },
      _sum: { on_hand: true },
    });
    expect(sum._sum.on_hand).toBe(Array.from({ length: n }, (_, i) => i % 10).reduce((a, b) => a + b, 0));
  }, 300_000);

  it('an unknown SKU in the second request is refused by its CSV row before any row is applied (exit 4)', async () => {
    const file = path.join(dir, 'refused.csv');
    const rows = Array.from({ length: 1200 }, (_, i) => `CSV-${i},7`);
    rows[1100] = 'NO-SUCH-SKU,7'; // CSV row 1102
    await writeFile(file, `sku,counted\n${rows.join('\n')}\n`);
    const r = await fos('inventory', 'import', file, '--warehouse', w.east);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /^error: row 1102: Product with SKU "NO-SUCH-SKU" was not found\.\nnothing was imported \(every row is checked before any is applied\)/m,
    );
    expect(r.stderr).not.toContain('lines[');
    const first = await w.t.db.prisma.inventoryLevel.findFirst({ where: { warehouse_id: w.east, product: { sku: 'CSV-0' } } });
    expect(first?.on_hand ?? 0).toBe(0);
    const late = await w.t.db.prisma.inventoryLevel.findFirst({ where: { warehouse_id: w.east, product: { sku: 'CSV-1050' } } });
    expect(late?.on_hand ?? 0).toBe(0);
  }, 120_000);
});

describe('fos products import', () => {
  it('creates and updates by SKU, typed from the API schema; failing rows are named by CSV row (exit 1)', async () => {
    const file = path.join(dir, 'products.csv');
    await writeFile(
      file,
      'SKU,Name,Type,Weight,Weight Unit,Minimum Level\nIMP-1,Import mug,standard,350,g,4\nIMP-2,Import tee,STANDARD,,,\n',
    );
    const r = await fos('products', 'import', file, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, created: 2, updated: 0, failed: 0 });
    const mug = await w.t.db.prisma.product.findFirstOrThrow({ where: { sku: 'IMP-1' } });
    expect(mug).toMatchObject({
      name: 'Import mug',
      type: 'STANDARD',
      weight: 350,
      weight_unit: 'G',
      minimum_level: 4,
      team_id: w.t.teamId,
    });

    await writeFile(file, 'sku,name\nIMP-1,Import mug v2\nIMP-NEW,\n');
    const partial = await fos('products', 'import', file, '--format', 'json');
    expect(partial.code).toBe(1);
    expect(JSON.parse(partial.stdout)).toMatchObject({ updated: 1, failed: 1, failures: [{ row: 3, sku: 'IMP-NEW' }] });
    expect(partial.stderr).toMatch(/row 3 \(IMP-NEW\): .*name and type are required/);
    expect((await w.t.db.prisma.product.findFirstOrThrow({ where: { sku: 'IMP-1' } })).name).toBe('Import mug v2');

    await writeFile(file, 'sku,colour\nIMP-1,red\n');
    const bad = await fos('products', 'import', file);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown column\(s\) colour; product columns are: .*weight_unit/);
    await writeFile(file, 'sku,weight,is_hazmat\nIMP-1,heavy,maybe\n');
    const typed = await fos('products', 'import', file);
    expect(typed.code).toBe(2);
    expect(typed.stderr).toMatch(/row 2: weight "heavy" is not a number/);
    expect(typed.stderr).toMatch(/row 2: is_hazmat "maybe" is not true or false/);
  });

  it('refuses codes that are no ISO country / currency or HS code, and a SKU differing only in case', async () => {
    const file = path.join(dir, 'codes.csv');
    await writeFile(file, `sku,name,type,country_of_origin,cost_currency\nIMP-C1,C,STANDARD,${'y'.repeat(64)},USDUSDUS\n`);
    const codes = await fos('products', 'import', file);
    expect(codes.code).toBe(2);
    expect(codes.stderr).toMatch(/row 2: country_of_origin/);
    expect(codes.stderr).toMatch(/row 2: cost_currency/);
    await writeFile(file, 'sku,name,type,hs_code\nIMP-C2,C,STANDARD,mugs\n');
    const hs = await fos('products', 'import', file, '--format', 'json');
    expect(hs.code).not.toBe(0);
    expect(hs.stderr).toMatch(/hs_code/);
    expect(await w.t.db.prisma.product.count({ where: { sku: { in: ['IMP-C1', 'IMP-C2'] } } })).toBe(0);

    await writeFile(file, 'sku,name,type\nimp-1,Lower-case twin,STANDARD\n');
    const twin = await fos('products', 'import', file, '--format', 'json');
    expect(twin.code).toBe(1);
    expect(twin.stderr).toMatch(/row 2 \(imp-1\): .*already used by product .* as "IMP-1"/);
    expect(twin.stderr).toContain('1 of 1 row(s) failed (none was applied)');

    await writeFile(file, 'sku,name,type\nIMP-J1,J,STANDARD\n');
    const field = await fos('products', 'import', file, '--json', 'created,nope');
    expect(field.code).toBe(2);
    expect(field.stderr).toContain('unknown field "nope" in --json');
    expect(await w.t.db.prisma.product.count({ where: { sku: 'IMP-J1' } })).toBe(0);
  });
});
