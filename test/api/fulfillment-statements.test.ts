import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { recordSqliteStatements } from '../helpers/statements.js';

// SQL statements one complete fulfilment costs (lock, package, label, fulfil; rate limiting
// included), counted at the driver: every statement the SQLite adapter runs goes through
// a prepared Statement's all/run, or Database#exec (BEGIN/COMMIT). The key is resolved once before
// counting, as in steady operation: a resolved key is cached (5 s, and every request renews its
// use), so its 4 reads are not a fulfilment's cost. Issue 9 targets <= 30; this guard keeps the
// count from growing: 86 once fulfil wrote its
// ledger movements (with the key's reads); 45 since the writes present their packages from what
// they wrote, fulfil decrements each table in one statement, lock and fulfil check holds in their
// compare-and-set, and names are read in one statement; 43 since on SQLite the order's counters
// and statuses are one statement; 40 since fulfil reads the names and whether a rate card could
// price the shipping with its compare-and-set, and moves the levels by product in one UPDATE;
// 36 since package create reads its order and names with the row lock, and its lines with
// what other open packages hold and their products in one SELECT; 34 since an uploaded label
// needs no read before its compare-and-set, and a label's response reads its order, shop and
// names in one statement; 33 since a package never labelled has no voided label to delete; 32
// since fulfil's decrement of the fulfillment order's lines returns them all (no read first); 31
// since a label's response reads its lines with its order, shop and names; 30 since on SQLite
// fulfil's compare-and-set also settles the fulfillment order (docs/performance.md, write path).
// Issue 9's target: met.
const CURRENT_CEILING = Number(process.env.FOS_FULFIL_STATEMENTS_MAX ?? 30);

const sqlite = (process.env.FOS_TEST_DB ?? 'sqlite') === 'sqlite';
let t: TestApp;
let token: string;
let merchantTeamId: string;

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchantTeamId = (await t.merchant()).teamId;
});
afterAll(() => t?.close());

describe.runIf(sqlite)('statements per fulfilment', () => {
  it('one complete fulfilment runs a bounded number of SQL statements', async () => {
    const f = await fulfillmentFixture(t, { merchantTeamId, lines: [{ quantity: 2, onHand: 10 }, { quantity: 1, onHand: 5 }], status: 'ACCEPTED' });
    const call = (method: string, url: string, body: unknown) => t.call(method, url, { token, body });
    expect((await call('GET', `/v1/ops/fulfillment-orders/${f.fo.id}`, undefined)).statusCode).toBe(200); // the key, resolved
    const statements: string[] = [];
    const stop = recordSqliteStatements(statements);
    try {
      const locked = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 15 });
      expect(locked.statusCode, locked.body).toBe(200);
      const pkg = await call('POST', '/v1/ops/packages', {
        fulfillment_order_id: f.fo.id, weight: 500, weight_unit: 'G',
        package_line_items: f.foLines.map((l, i) => ({ sku: l.sku, quantity: i === 0 ? 2 : 1 })),
      });
      expect(pkg.statusCode, pkg.body).toBe(201);
      const id = pkg.json().id;
      const label = await call('POST', `/v1/ops/packages/${id}/label`, {
        label_url: 'https://labels.example/l.pdf', tracking_number: `TRK${id.slice(-8)}`, carrier: 'USPS', service: 'Priority', cost: 7.1, cost_currency: 'USD',
      });
      expect(label.statusCode, label.body).toBe(200);
      const done = await call('POST', `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' });
      expect(done.statusCode, done.body).toBe(200);
    } finally {
      stop();
    }
    console.info(`one complete fulfilment: ${statements.length} SQL statements`);
    if (process.env.FOS_SHOW_STATEMENTS) console.info(statements.map((s) => s.slice(0, Number(process.env.FOS_SHOW_STATEMENTS) > 1 ? undefined : 110)).join("\n"));
    expect(statements.length).toBeGreaterThan(4); // the spy saw the requests at all
    expect(statements.length).toBeLessThanOrEqual(CURRENT_CEILING);
  });
});
