import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from '../api/orders.fixtures.js';
import { runCli } from './helpers/cli.js';

// `fos locations …` and the bin verbs of `fos inventory` through the spawned CLI against a real
// server (issue 28): a block of bins from a range, a CSV import (all or none, row-numbered
// problems), receipts into a bin, a move, a count of one bin, and stock by bin.

let w: World;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  w = await world();
  const base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: w.token };
  dir = await mkdtemp(path.join(tmpdir(), 'fos-loc-'));
});
afterAll(() => w?.t.close());

const fos = (...args: string[]) => runCli(args, { env });
const json = async (...args: string[]) => {
  const r = await fos(...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('fos locations', () => {
  it('creates bins one by one and from a range, lists them in walk order', async () => {
    const one = await json('locations', 'create', 'R-01', '--warehouse', w.east, '--type', 'RECEIVING', '--barcode', 'LOC-R01');
    expect(one).toMatchObject({ name: 'R-01', type: 'RECEIVING', barcode: 'LOC-R01' });
    const block = await json('locations', 'create', '--warehouse', w.east, '--range', 'A-01-01..A-03-02');
    expect(block.created).toBe(6);
    const listed = await json('locations', 'list', '--warehouse', w.east, '--name', 'A-0');
    expect(listed.map((l: any) => l.name)).toEqual(['A-01-01', 'A-01-02', 'A-02-01', 'A-02-02', 'A-03-01', 'A-03-02']);
    const dup = await fos('locations', 'create', 'R-01', '--warehouse', w.east);
    expect(dup.code).toBe(5);
    expect(dup.stderr).toMatch(/name R-01 is already used/);
    const bad = await fos('locations', 'create', '--warehouse', w.east, '--range', 'A-1..B');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/same parts/);
  });

  it('imports a CSV of bins in one request, and refuses a file with bad rows sending nothing', async () => {
    const good = path.join(dir, 'bins.csv');
    await writeFile(good, 'Name,Type,Barcode,Pick Sequence\nO-01,overstock,LOC-O01,500\nO-02,OVERSTOCK,,501\nDMG,DAMAGED,,900\n');
    const r = await json('locations', 'import', good, '--warehouse', w.east);
    expect(r).toMatchObject({ created: 3 });
    expect(
      (await json('locations', 'list', '--warehouse', w.east, '--type', 'OVERSTOCK')).map((l: any) => [l.name, l.pick_sequence, l.barcode]),
    ).toEqual([
      ['O-01', 500, 'LOC-O01'],
      ['O-02', 501, null],
    ]);
    const badFile = path.join(dir, 'bad.csv');
    await writeFile(badFile, 'name,type,pick_sequence\nX-01,FRIDGE,1\n,PICKABLE,2\nX-03,PICKABLE,-4\n');
    const bad = await fos('locations', 'import', badFile, '--warehouse', w.east);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/row 2: type FRIDGE/);
    expect(bad.stderr).toMatch(/row 3: no name/);
    expect(bad.stderr).toMatch(/row 4: pick_sequence -4/);
    expect((await json('locations', 'list', '--warehouse', w.east, '--name', 'X-')).length).toBe(0);
  });

  it('receives into a bin, moves, counts one bin and lists stock by bin', async () => {
    await w.product('CLI-BIN');
    const po = await json('purchase-orders', 'create', '--warehouse', w.east, 'CLI-BIN=20');
    const rec = await json('purchase-orders', 'receive', po.id, 'CLI-BIN=20', '--location', 'LOC-R01');
    expect(rec.units).toBe(20);
    const moved = await json('inventory', 'move', '--warehouse', w.east, '--from', 'R-01', '--to', 'A-01-01', 'CLI-BIN=12');
    expect(moved).toMatchObject({ from_location_name: 'R-01', to_location_name: 'A-01-01', lines: [{ sku: 'CLI-BIN', quantity: 12 }] });
    const counted = await json('inventory', 'count', '--warehouse', w.east, '--location', 'A-01-01', 'CLI-BIN=11');
    expect(counted.lines[0]).toMatchObject({ delta: -1, on_hand: 19 });
    const stock = await json('inventory', 'locations', '--sku', 'CLI-BIN');
    expect(stock.map((s: any) => [s.location_name, s.on_hand]).sort()).toEqual([
      ['A-01-01', 11],
      ['R-01', 8],
    ]);
    const short = await fos('inventory', 'move', '--warehouse', w.east, '--from', 'R-01', '--to', 'A-01-01', 'CLI-BIN=9');
    expect(short.code).toBe(5);
    expect(short.stderr).toMatch(
      / \([0-9a-f-]{36}\) has only 8 of 9 units of CLI-BIN \([0-9a-f-]{36}\) to take from location R-01 \([0-9a-f-]{36}\)/,
    );
  });
});
