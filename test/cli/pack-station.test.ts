import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { ptySpawn, type PtyRun } from './helpers/pty.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, ROOT } from './helpers/spawn.js';

// `fos pack` as a packer runs it: bin/fos.js on an 80x24 pseudo-terminal, a scanner typing codes
// and Enter. Wrong scans ring the bell and show a red line; the station is killed mid-box and the
// box is still there when it starts again; undo; done asks the weight, packs, labels and prints.
// Once on this Node and once on Node 24 (issue 28 item 6a).

const NODE24 = process.env.FOS_TEST_NODE24 ?? '/root/.npm/_npx/387698761821791d/node_modules/node/bin/node';
const NODES = [
  ['this Node', process.execPath],
  ...(existsSync(NODE24) && NODE24 !== process.execPath ? [['Node 24', NODE24]] : []),
] as const;

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  await ensureCliBundle();
  ({ t, env } = await cliServer());
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

const plain = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

/** Types a line and waits for what it should show; returns the screen from the line on. */
async function step(p: PtyRun, line: string, expected: string | RegExp): Promise<string> {
  const from = p.output().length;
  p.type(`${line}\r`);
  const seen = (screen: string) => {
    const text = plain(screen.slice(from));
    return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
  };
  await p.waitFor(seen);
  const shown = p.output().slice(from);
  expect(plain(shown), `after typing ${line}`).toMatch(expected);
  return shown;
}

describe.each(NODES)('fos pack on %s', (_name, node) => {
  it('packs a box from scanned lines, survives a crash, and prints the label', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }, { quantity: 1 }], status: 'ACCEPTED' });
    const other = await fulfillmentFixture(t, { lines: [{ quantity: 1 }] });
    await t.db.prisma.product.update({ where: { id: f.products[1].id }, data: { barcode: `0${Date.now()}` } });
    const barcode = (await t.db.prisma.product.findUniqueOrThrow({ where: { id: f.products[1].id } })).barcode!;
    const [skuA, skuB] = [f.foLines[0].sku!, f.foLines[1].sku!];
    const printed = await mkdtemp(path.join(process.env.TMPDIR ?? tmpdir(), 'fos-pack-print-'));
    const runEnv = {
      ...env,
      PATH: process.env.PATH,
      HOME: ROOT,
      FOS_CONFIG_DIR: path.join(printed, 'config'),
      NO_COLOR: '1',
      FOS_PRINT_COMMAND: `cat > "${printed}/$FOS_DOCUMENT_NAME"`,
    };
    const bin = path.join(ROOT, 'bin/fos.js');

    // First station: asks for the order, checks scans, then dies with one unit in the box.
    const first = ptySpawn([node, bin, 'pack'], { env: runEnv, columns: 80, rows: 24 });
    await first.waitFor('SCAN THE ORDER');
    await step(first, f.fo.id, `NEXT: 2 X ${skuA}`);
    await step(first, skuA.toLowerCase(), `1 x ${skuA} in the box (1 of 2)`);
    const wrong = await step(first, other.foLines[0].sku!, 'is not in this order');
    expect(wrong).toContain('\u0007');
    const unknown = await step(first, 'NO-SUCH-CODE', 'No product has the barcode or SKU "NO-SUCH-CODE"');
    expect(unknown).toContain('\u0007');
    first.kill();
    await first.done;
    expect(await t.db.prisma.packScan.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(1);

    // Second station: resumes the same box, undo, fills it, closes it with a weight, prints; --fo given as the short id tables show.
    const second = ptySpawn(
      [node, bin, 'pack', '--fo', f.fo.id.slice(0, 28), '--weight-unit', 'G', '--rate-strategy', 'CHEAPEST', '--print'],
      {
        env: runEnv,
        columns: 80,
        rows: 24,
      },
    );
    await second.waitFor('Resumed: 1 scan(s) already in this box');
    await step(second, skuA, `(2 of 2)`);
    await step(second, 'undo', `Undone: 1 x ${skuA} taken out of the box`);
    await step(second, skuA, `(2 of 2)`);
    const over = await step(second, skuA, '0 more can go in this box');
    expect(over).toContain('\u0007');
    await step(second, barcode, 'BOX COMPLETE: TYPE DONE TO CLOSE IT');
    await step(second, 'done', 'WEIGHT in grams (G)');
    await step(second, '900', 'Label sent to the printer');
    second.type('quit\r'); // after done the station takes `ship` (pack-ship.test.ts); anything else ends it
    const { code, output } = await second.done;
    expect(code, plain(output)).toBe(0);

    const pkg = await t.db.prisma.package.findFirstOrThrow({ where: { fulfillment_order_id: f.fo.id }, include: { line_items: true } });
    expect(plain(output)).toContain(pkg.id);
    expect(pkg).toMatchObject({ weight: 900, weight_unit: 'G', rate_strategy: 'CHEAPEST' });
    expect(pkg.line_items.map((l) => [l.sku, l.quantity]).sort()).toEqual(
      [
        [skuA, 2],
        [skuB, 1],
      ].sort(),
    );
    expect(pkg.shipping_label_id).not.toBeNull();
    expect(await readdir(printed)).toContain(`label-${pkg.id}.pdf`);
    // Made for 80x24: no line wider than the terminal.
    for (const run of [first.output(), output]) {
      const long = plain(run)
        .split('\n')
        .filter((l) => l.length > 80);
      expect(long).toEqual([]);
    }
  }, 240_000);
});
