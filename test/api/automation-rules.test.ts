import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, line } from './orders.fixtures.js';
import { rulesWorld, type RulesWorld } from '../helpers/rules-world.js';

// Automation rules (issue 41 item 1, docs/automation.md): CRUD with versions and positions, refusals
// naming the path, every condition and action, precedence and stop, the trace on the order, a
// person's choice beating a rule, and rules applied at intake (draft conversion) and on demand.

let w: RulesWorld;
let ci: string;
beforeAll(async () => {
  w = await rulesWorld();
  ci = (await w.t.db.prisma.carrierIntegration.create({ data: { team_id: w.t.teamId, name: 'Table rates', type: 'TABLE' } })).id;
});
afterAll(() => w?.t.close());

describe('automation rules CRUD', () => {
  it('creates in order, moves by position, bumps version with who, compare-and-set, deletes and renumbers', async () => {
    const a = await w.rule({ name: 'a', conditions: {}, actions: { carrier_id: 'usps' } });
    const b = await w.rule({ name: 'b', conditions: {}, actions: { carrier_id: 'ups' } });
    const c = await w.rule({ name: 'c', position: 1, conditions: {}, actions: { carrier_id: 'dhl' } });
    const list = await w.ok('GET', '/v1/ops/automation-rules');
    expect(list.data.map((r: any) => [r.name, r.position])).toEqual([
      ['c', 1],
      ['a', 2],
      ['b', 3],
    ]);
    expect(a).toMatchObject({ version: 1, enabled: true, fulfiller_team_id: w.t.teamId });
    const moved = await w.ok('PATCH', `/v1/ops/automation-rules/${b.id}`, { position: 1, name: 'b2', version: 1 });
    expect(moved).toMatchObject({ name: 'b2', position: 1, version: 2 });
    expect(moved.updated_by_key_id).toBeTruthy();
    const stale = await w.call('PATCH', `/v1/ops/automation-rules/${b.id}`, { name: 'x', version: 1 });
    expect(stale.statusCode).toBe(409);
    await w.drop(b.id);
    const after = await w.ok('GET', '/v1/ops/automation-rules');
    expect(after.data.map((r: any) => [r.name, r.position])).toEqual([
      ['c', 1],
      ['a', 2],
    ]);
    expect((await w.ok('GET', `/v1/ops/automation-rules/${a.id}`)).name).toBe('a');
    await w.drop(a.id);
    await w.drop(c.id);
    expect((await w.call('GET', `/v1/ops/automation-rules/${a.id}`)).statusCode).toBe(404);
  });

  it('refuses bad rules with the path of the error', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ conditions: { all: [{ any: [{ colour: ['red'] }] }] }, actions: { carrier_id: 'x' } }, 400, 'body.conditions.all.0.any.0.colour'],
      [{ conditions: { weight: { gte: 'heavy' } }, actions: { carrier_id: 'x' } }, 400, 'body.conditions.weight.gte'],
      [{ conditions: {}, actions: { teleport: true } }, 400, 'body.actions.teleport'],
      [{ conditions: {}, actions: {} }, 400, 'body.actions'],
      [{ conditions: {}, actions: { priority: 'URGENT' } }, 400, 'body.actions.priority'],
      [{ conditions: {}, actions: { carrier_integration_id: 'nope' } }, 400, 'body.actions.carrier_integration_id'],
      [{ conditions: {}, actions: { carrier_id: 'x' }, merchant_team_id: 'nope' }, 400, 'body.merchant_team_id'],
    ];
    for (const [body, status, path] of cases) {
      const r = await w.call('POST', '/v1/ops/automation-rules', { name: 'bad', ...body });
      expect(r.statusCode, r.body).toBe(status);
      expect(
        r
          .json()
          .errors.map((e: any) => e.path)
          .join(' '),
        r.body,
      ).toContain(path);
    }
    expect((await w.ok('GET', '/v1/ops/automation-rules')).data).toEqual([]);
  });
});

describe('conditions (POST …/automation-rules/test, writes nothing)', () => {
  const base = {
    merchant_team_id: 'm1',
    shop_type: 'MANUAL',
    tags: ['vip'],
    shipping_address: { country: 'US', state: 'OR', zip: '97201' },
    total_price: 50,
    shipping_method: 'Ground',
    priority: 'NORMAL',
    line_items: [
      { sku: 'A', quantity: 2, weight: 100 },
      { sku: 'B', quantity: 1, weight: 300 },
    ],
  };
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['merchant_team_id', { merchant_team_id: ['m1'] }, { merchant_team_id: 'm2' }],
    ['shop_type', { shop_type: ['MANUAL'] }, { shop_type: 'SHOPIFY' }],
    ['tags_any', { tags_any: ['x', 'vip'] }, { tags: ['y'] }],
    ['tags_all', { tags_all: ['vip'] }, { tags: ['gift'] }],
    ['tags_none', { tags_none: ['wholesale'] }, { tags: ['wholesale'] }],
    ['country', { country: ['us', 'CA'] }, { shipping_address: { country: 'DE' } }],
    ['state', { state: ['OR'] }, { shipping_address: { country: 'US', state: 'WA' } }],
    ['zip_prefix', { zip_prefix: ['972'] }, { shipping_address: { country: 'US', zip: '10001' } }],
    ['weight', { weight: { lte: 500 } }, { line_items: [{ sku: 'A', quantity: 9, weight: 100 }] }],
    ['item_count', { item_count: { gte: 3 } }, { line_items: [{ sku: 'A', quantity: 1 }] }],
    ['line_count', { line_count: { gte: 2, lte: 2 } }, { line_items: [{ sku: 'A', quantity: 5 }] }],
    ['order_total', { order_total: { gte: 40 } }, { total_price: 10 }],
    ['skus_any', { skus_any: ['B', 'Z'] }, { line_items: [{ sku: 'A', quantity: 1 }] }],
    ['skus_all', { skus_all: ['A', 'B'] }, { line_items: [{ sku: 'A', quantity: 1 }] }],
    ['skus_only', { skus_only: ['A', 'B', 'C'] }, { line_items: [{ sku: 'D', quantity: 1 }] }],
    ['shipping_method', { shipping_method: ['ground'] }, { shipping_method: 'Express' }],
    ['priority', { priority: ['NORMAL'] }, { priority: 'HIGH' }],
    ['all', { all: [{ country: ['US'] }, { tags_any: ['vip'] }] }, { tags: [] }],
    ['any', { any: [{ country: ['CA'] }, { tags_any: ['vip'] }] }, { tags: [] }],
    ['not', { not: { country: ['CA'] } }, { shipping_address: { country: 'CA' } }],
  ];
  it.each(cases)('%s matches and does not match', async (_name, conditions, change) => {
    const r = await w.rule({ conditions, actions: { add_tags: ['hit'] } });
    try {
      const yes = await w.test(base);
      expect(yes.decisions.map((d: any) => d.rule_id)).toEqual([r.id]);
      expect(yes.result.tags).toContain('hit');
      const no = await w.test({ ...base, ...change });
      expect(no.decisions).toEqual([]);
    } finally {
      await w.drop(r.id);
    }
  });
});

describe('actions on arriving orders', () => {
  let rules: any[] = [];
  afterAll(async () => {
    for (const r of rules) await w.drop(r.id);
  });

  it('intake writes every action, the trace, first rule wins a field, stop ends the run', async () => {
    rules = [
      await w.rule({
        name: 'light domestic',
        conditions: { country: ['US'], weight: { lte: 1000 } },
        actions: { carrier_integration_id: ci, carrier_id: 'usps', service_id: 'usps_ground_advantage', rate_strategy: 'CHEAPEST' },
      }),
      await w.rule({
        name: 'never wins carrier',
        conditions: {},
        actions: { carrier_id: 'ups', package_preset_id: 'pp-1', carton_id: 'C12' },
      }),
      await w.rule({
        name: 'wholesale waits',
        conditions: { tags_any: ['wholesale'] },
        actions: {
          hold: { reason: 'MANUAL', notes: 'wholesale: a person checks' },
          add_tags: ['checked'],
          remove_tags: ['wholesale'],
          priority: 'HIGH',
          stop: true,
        },
      }),
      await w.rule({ name: 'after stop', conditions: {}, actions: { add_tags: ['late'] } }),
    ];
    const pid = await w.product('AR-1', { [w.east]: 10 });
    await w.t.db.prisma.product.update({ where: { id: pid }, data: { weight: 200 } });
    const order = await w.order({ line_items: [line('AR-1', 2)], payment_status: 'PAID', tags: ['wholesale'] });
    const o = await w.ok('GET', `/v1/ops/orders/${order.id}`);
    expect(o).toMatchObject({
      carrier_integration_id: ci,
      carrier_integration_name: 'Table rates',
      carrier_id: 'usps',
      service_id: 'usps_ground_advantage',
      rate_strategy: 'CHEAPEST',
      package_preset_id: 'pp-1',
      carton_id: 'C12',
      priority: 'HIGH',
      tags: ['checked'],
    });
    expect(o.order_fulfillment_holds).toEqual([
      expect.objectContaining({ active: true, reason: 'MANUAL', reason_notes: 'wholesale: a person checks' }),
    ]);
    expect(o.automation_trace.trigger).toBe('INTAKE');
    expect(o.automation_trace.decisions).toEqual([
      expect.objectContaining({ rule_id: rules[0].id, version: 1, set: expect.objectContaining({ carrier_id: 'usps' }), stopped: false }),
      {
        rule_id: rules[1].id,
        rule_name: 'never wins carrier',
        version: 1,
        set: { package_preset_id: 'pp-1', carton_id: 'C12' },
        kept: [],
        stopped: false,
      },
      expect.objectContaining({
        rule_id: rules[2].id,
        stopped: true,
        set: expect.objectContaining({ add_tags: ['checked'], remove_tags: ['wholesale'], priority: 'HIGH' }),
      }),
    ]);
  });

  it("a person's carrier choice (PATCH) is kept by a re-run; the trace names it; packages inherit the selection", async () => {
    await w.product('AR-2', { [w.east]: 10 });
    const order = await w.order({ line_items: [line('AR-2', 1)], payment_status: 'PAID' });
    const patched = await w.ok('PATCH', `/v1/ops/orders/${order.id}`, { carrier_id: 'fedex', service_id: 'fedex_ground' });
    expect(patched).toMatchObject({ carrier_id: 'fedex', carrier_selection_set_by_person: ['carrier_id', 'service_id'] });
    const bad = await w.call('PATCH', `/v1/ops/orders/${order.id}`, { carrier_integration_id: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.carrier_integration_id');
    const again = await w.ok('POST', `/v1/ops/orders/${order.id}/apply-rules`);
    expect(again).toMatchObject({ carrier_id: 'fedex', service_id: 'fedex_ground', carrier_integration_id: ci, carton_id: 'C12' });
    expect(again.automation_trace.trigger).toBe('MANUAL');
    expect(again.automation_trace.decisions[0].kept).toEqual(['carrier_id', 'service_id']);
    expect(again.automation_trace.decisions[0].set).not.toHaveProperty('carrier_id');
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id } });
    const pkg = await w.ok(
      'POST',
      '/v1/ops/packages',
      { fulfillment_order_id: fo.id, package_line_items: [{ sku: 'AR-2', quantity: 1 }] },
      201,
    );
    expect(pkg).toMatchObject({ carrier_id: 'fedex', service_id: 'fedex_ground', carrier_integration_id: ci });
    const row = await w.t.db.prisma.package.findUniqueOrThrow({ where: { id: pkg.id } });
    expect(row).toMatchObject({ rate_strategy: 'CHEAPEST', carton_id: 'C12', package_preset_id: 'pp-1' });
  });

  it('an updated rule re-applies with its new version; --all-open reaches every open order; merchant scope', async () => {
    const upd = await w.ok('PATCH', `/v1/ops/automation-rules/${rules[1].id}`, { actions: { carton_id: 'C20' } });
    expect(upd.version).toBe(2);
    const other = await w.t.merchant();
    const scoped = await w.rule({
      name: 'other merchant only',
      merchant_team_id: other.teamId,
      conditions: {},
      actions: { add_tags: ['other'] },
    });
    rules.push(scoped);
    const all = await w.ok('POST', '/v1/ops/automation-rules/apply');
    expect(all.orders).toBeGreaterThanOrEqual(2);
    const orders = await w.t.db.prisma.order.findMany({ where: { fulfiller_team_id: w.t.teamId } });
    for (const o of orders) {
      const trace = o.automation_trace as any;
      expect(trace.trigger).toBe('MANUAL');
      expect(trace.decisions.find((d: any) => d.rule_id === rules[1].id)).toMatchObject({ version: 2, set: { carton_id: 'C20' } });
      expect(o.tags).not.toContain('other');
    }
    // Fields a rule set before and no rule sets now are cleared on a re-run (package_preset_id).
    const one = await w.ok('GET', `/v1/ops/orders/${orders[0].id}`);
    expect(one.package_preset_id).toBeNull();
  });

  it('test by order id shows what would happen without writing', async () => {
    const o = await w.t.db.prisma.order.findFirstOrThrow({ where: { fulfiller_team_id: w.t.teamId } });
    const before = JSON.stringify(o.automation_trace);
    const r = await w.ok('POST', '/v1/ops/automation-rules/test', { order_id: o.id });
    expect(r.decisions.length).toBeGreaterThan(0);
    const after = await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: o.id } });
    expect(JSON.stringify(after.automation_trace)).toBe(before);
    expect((await w.call('POST', '/v1/ops/automation-rules/test', { order_id: 'missing' })).statusCode).toBe(404);
  });
});

void ADDRESS;
