// The floor's keys through the spawned `bin/fos.js` against a spawned-style server with the demo:
// SKU and barcode for products, order numbers (`1007`, `#1007`) for orders, their fulfillment
// orders and the pack station, tote names, location and session names, holds by reason, an
// ambiguous key listing its candidates, and `orders get 9999` (issue 34 item 3, issue 35).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo } from '../../src/server/demo/demo.js';
import type { TestApp } from '../helpers/app.js';
import { tempConfigDir } from './helpers/cli.js';
import { ptySpawn } from './helpers/pty.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, ROOT, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let stove: { id: string; sku: string | null };
let fo: { id: string; order_id: string; number: string };

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer();
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  await loadDemo(t.db);
  stove = await t.db.prisma.product.findFirstOrThrow({ where: { sku: 'ACME-STOVE' }, select: { id: true, sku: true } });
  await barcode(stove.id, '0123456789012');
  const row = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({
    where: { status: 'ACCEPTED' },
    include: { order: { select: { order_number: true } } },
    orderBy: { id: 'asc' },
  });
  expect(await t.db.prisma.fulfillmentOrder.count({ where: { order_id: row.order_id } })).toBe(1);
  fo = { id: row.id, order_id: row.order_id, number: row.order.order_number! };
}, 300_000);
afterAll(() => t?.close());

/** Through the API, so the product's search text (name, SKU, barcode) follows. */
async function barcode(id: string, code: string) {
  const r = await t.call('PATCH', `/v1/ops/products/${id}`, { token: env.FOS_API_KEY, body: { barcode: code } });
  expect(r.statusCode, r.body).toBe(200);
}

async function ok(args: string[], stdin = ''): Promise<any> {
  const r = await spawnFos([...args, '--json'], env, stdin);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

describe('human keys (spawned)', () => {
  it('products by SKU (any case), barcode and id prefix; orders and fulfillment orders by number with and without #', async () => {
    for (const ref of ['ACME-STOVE', 'acme-stove', '0123456789012', stove.id.slice(0, 28)]) {
      expect(await ok(['products', 'get', ref]), ref).toMatchObject({ id: stove.id, sku: 'ACME-STOVE' });
    }
    const bare = fo.number.replace(/^#/, '');
    for (const ref of [bare, `#${bare}`]) {
      expect(await ok(['orders', 'get', ref])).toMatchObject({ id: fo.order_id });
      expect(await ok(['fulfillment-orders', 'get', ref])).toMatchObject({ id: fo.id });
      const listed = await ok(['fulfillment-orders', 'list', '--order-id', ref]);
      expect(listed.map((f: { id: string }) => f.id)).toEqual([fo.id]);
    }
    const levels = await ok(['inventory', 'list', '--product', 'ACME-STOVE']);
    expect(levels.length).toBeGreaterThan(0);
    expect(new Set(levels.map((l: { product_id: string }) => l.product_id))).toEqual(new Set([stove.id]));
  });

  it('orders get 9999 says there is no order number 9999 (exit 4); an unknown SKU is not found', async () => {
    const none = await spawnFos(['orders', 'get', '9999'], env);
    expect(none.code).toBe(4);
    expect(none.stderr).toBe('error: no order has order number 9999 (and no order id starts with it)\n');
    const sku = await spawnFos(['products', 'get', 'NO-SUCH-SKU'], env);
    expect(sku.code).toBe(4);
    expect(sku.stderr).toBe('error: no product has SKU or barcode NO-SUCH-SKU (fos products list shows them)\n');
  });

  it('an ambiguous key is refused with one line and the candidates below it (exit 2)', async () => {
    const twin = await t.db.prisma.product.findFirstOrThrow({ where: { sku: { not: 'ACME-STOVE' } }, select: { id: true, sku: true } });
    await barcode(twin.id, '999000111');
    await barcode(stove.id, '999000111');
    try {
      const r = await spawnFos(['products', 'get', '999000111'], env);
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe('error: SKU or barcode 999000111 is ambiguous: 2 products match; pass the id (or a prefix of it)');
      expect(lines.slice(1).sort()).toEqual([`  ${stove.id}  ACME-STOVE`, `  ${twin.id}  ${twin.sku}`].sort());
      expect(r.stdout).toBe('');
    } finally {
      await barcode(stove.id, '0123456789012');
    }
  });

  it('locations and picking sessions by name; orders release by reason or the only hold', async () => {
    const bin = await ok(['locations', 'create', 'KEY-BIN-1', '--warehouse', 'Portland DC']);
    expect(await ok(['locations', 'update', 'KEY-BIN-1', '--pick-sequence', '7'])).toMatchObject({ id: bin.id, pick_sequence: 7 });
    const session = await t.call('POST', '/v1/ops/picking-sessions', { token: env.FOS_API_KEY, body: { name: 'Keys wave' } });
    expect(session.statusCode, session.body).toBe(201);
    expect(await ok(['picking-sessions', 'get', 'Keys wave'])).toMatchObject({ id: session.json().id });

    const hold = (reason: string) =>
      t.call('POST', `/v1/ops/orders/${fo.order_id}/holds`, { token: env.FOS_API_KEY, body: { reason } }).then((r) => r.json());
    const manual = await hold('MANUAL');
    const fraud = await hold('FRAUD_REVIEW');
    const two = await spawnFos(['orders', 'release', fo.number], env);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('the order has 2 active holds: name one (its reason or id)');
    expect(two.stderr).toContain(`  ${fraud.id}  FRAUD_REVIEW`);
    expect(await ok(['orders', 'release', fo.number, 'fraud_review'])).toMatchObject({ id: fraud.id, active: false });
    expect(await ok(['orders', 'release', fo.number])).toMatchObject({ id: manual.id, active: false });
    const holds = await t.db.prisma.orderFulfillmentHold.findMany({ where: { order_id: fo.order_id } });
    expect(holds.every((h) => !h.active)).toBe(true);
  });
});

describe('the pack station takes an order number or a tote', () => {
  it('--fo with the order number and with a tote name opens that order', async () => {
    for (const ref of [fo.number.replace(/^#/, ''), 'TOTE-KEYS']) {
      if (ref === 'TOTE-KEYS') {
        const tote = await t.call('POST', '/v1/ops/totes', { token: env.FOS_API_KEY, body: { name: 'TOTE-KEYS' } });
        expect(tote.statusCode, tote.body).toBe(201);
        await t.db.prisma.fulfillmentOrder.update({ where: { id: fo.id }, data: { tote_id: tote.json().id } });
      }
      const r = await spawnFos(['pack', '--fo', ref], env, 'quit\n');
      expect(r.code, r.stderr).toBe(1); // opened, then quit with nothing packed (docs/cli.md: exit 1)
      expect(r.stderr).toContain(`ORDER ${fo.number}`);
    }
  });

  it('the prompt takes the order number as a scanner types it (pseudo-terminal)', async () => {
    const p = ptySpawn([process.execPath, `${ROOT}/bin/fos.js`, 'pack'], { env, columns: 80, rows: 24 });
    await p.waitFor('SCAN THE ORDER');
    p.type(`${fo.number}\r`);
    await p.waitFor((s) => s.includes(`ORDER ${fo.number}`));
    p.type('quit\r');
    p.end();
    expect((await p.done).code).toBe(1); // nothing packed
  });
});
