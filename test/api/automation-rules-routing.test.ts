import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveStock } from '../../src/domain/inventory/receive.js';
import { allocatePending } from '../../src/domain/orders/pending.js';
import { createTeam } from '../../src/domain/teams/teams.js';
import { ADDRESS, line } from './orders.fixtures.js';
import { rulesWorld, type RulesWorld } from '../helpers/rules-world.js';

// Automation rules, issue 41's second round (docs/automation.md): the residential, dimension and
// deliver_by conditions (deliver_by against the app's fixed clock), warehouse routing through
// allocation (prefer and only, at intake and in later allocations), signature / insurance /
// customs actions landing in the order's config (a person's config kept) and inherited by its
// packages, and the rules' version history.

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const hours = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

let w: RulesWorld;
beforeAll(async () => {
  w = await rulesWorld({ clock: () => NOW });
});
afterAll(() => w?.t.close());

describe('conditions: residential, dimensions, deliver_by (POST …/test)', () => {
  const base = {
    address_residential: 'RESIDENTIAL',
    deliver_by: hours(10),
    line_items: [
      { sku: 'A', quantity: 2, length: 300, width: 200, height: 100 },
      { sku: 'B', quantity: 1, length: 50, width: 50, height: 50 },
    ],
  };
  // volume: 2 × 6000 cm³ + 125 cm³ = 12125 cm³; longest side 300 mm; deliver_by 10 h after the clock.
  // [name, conditions, order that matches (over base), order that does not]
  const cases: [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
    ['residential true', { residential: true }, {}, { address_residential: 'UNKNOWN' }],
    ['residential false', { residential: false }, { address_residential: 'UNKNOWN' }, {}],
    ['longest_side', { longest_side: { gte: 300 } }, {}, { line_items: [{ sku: 'B', quantity: 1, length: 50, width: 50, height: 50 }] }],
    [
      'volume',
      { volume: { gte: 12125, lte: 12125 } },
      {},
      { line_items: [{ sku: 'A', quantity: 1, length: 300, width: 200, height: 100 }] },
    ],
    ['deliver_by within_hours', { deliver_by: { within_hours: 10 } }, {}, { deliver_by: hours(10.01) }],
    ['deliver_by after_hours', { deliver_by: { after_hours: 9.99 } }, {}, { deliver_by: hours(9.99) }],
    ['deliver_by present', { deliver_by: { present: true } }, {}, { deliver_by: undefined }],
    ['deliver_by overdue', { deliver_by: { within_hours: 0 } }, { deliver_by: hours(-1) }, {}],
  ];
  it.each(cases)('%s matches and does not match', async (_name, conditions, yes, no) => {
    const r = await w.rule({ conditions, actions: { add_tags: ['hit'] } });
    try {
      const matched = await w.test({ ...base, ...yes });
      expect(matched.decisions.map((d: any) => d.rule_id)).toEqual([r.id]);
      expect((await w.test({ ...base, ...no })).decisions).toEqual([]);
    } finally {
      await w.drop(r.id);
    }
  });

  it('present: false matches only orders without deliver_by; bad shapes are refused with their path', async () => {
    const r = await w.rule({ conditions: { deliver_by: { present: false } }, actions: { add_tags: ['none'] } });
    expect((await w.test({ line_items: [] })).decisions).toHaveLength(1);
    expect((await w.test({ deliver_by: hours(5) })).decisions).toHaveLength(0);
    await w.drop(r.id);
    for (const [conditions, path] of [
      [{ deliver_by: {} }, 'body.conditions.deliver_by'],
      [{ deliver_by: { within_hours: -1 } }, 'body.conditions.deliver_by.within_hours'],
      [{ residential: 'yes' }, 'body.conditions.residential'],
      [{ volume: { gte: 'big' } }, 'body.conditions.volume.gte'],
    ] as const) {
      const bad = await w.call('POST', '/v1/ops/automation-rules', { name: 'bad', conditions, actions: { add_tags: ['x'] } });
      expect(bad.statusCode, bad.body).toBe(400);
      expect(
        bad
          .json()
          .errors.map((e: any) => e.path)
          .join(' '),
      ).toContain(path);
    }
  });

  it('at intake: deliver_by against the app clock and residential from the address verification', async () => {
    const r = await w.rule({
      conditions: { residential: true, deliver_by: { within_hours: 48 } },
      actions: { priority: 'HIGH', add_tags: ['rush'] },
    });
    await w.product('DB-1', { [w.east]: 10 });
    const soon = await w.order({ line_items: [line('DB-1', 1)], payment_status: 'PAID', deliver_by: hours(24) });
    const later = await w.order({ line_items: [line('DB-1', 1)], payment_status: 'PAID', deliver_by: hours(72) });
    const business = await w.order({
      line_items: [line('DB-1', 1)],
      payment_status: 'PAID',
      deliver_by: hours(24),
      shipping_address: { ...ADDRESS, company: 'Analytical Engines Ltd' },
    });
    expect(await w.ok('GET', `/v1/ops/orders/${soon.id}`)).toMatchObject({ priority: 'HIGH', tags: ['rush'] });
    expect(soon.automation_trace ?? (await w.ok('GET', `/v1/ops/orders/${soon.id}`)).automation_trace).toMatchObject({
      applied_at: new Date(NOW).toISOString(),
    });
    expect(await w.ok('GET', `/v1/ops/orders/${later.id}`)).toMatchObject({ priority: 'NORMAL', tags: [] });
    expect(await w.ok('GET', `/v1/ops/orders/${business.id}`)).toMatchObject({ priority: 'NORMAL', tags: [] });
    await w.drop(r.id);
  });
});

describe('warehouse routing', () => {
  const foWarehouses = async (orderId: string) =>
    (await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: orderId }, include: { line_items: true } }))
      .map((f) => [f.warehouse_id, f.line_items.reduce((s, l) => s + l.quantity, 0)])
      .sort();

  it('a rule routes to its warehouse before allocation; without it the preferred one (East) ships', async () => {
    const pid = await w.product('RT-1', { [w.east]: 10, [w.west]: 10 });
    const plain = await w.order({ line_items: [line('RT-1', 2)], payment_status: 'PAID' });
    expect(await foWarehouses(plain.id)).toEqual([[w.east, 2]]);
    const r = await w.rule({ conditions: { skus_any: ['RT-1'] }, actions: { warehouse_id: w.west } });
    const routed = await w.order({ line_items: [line('RT-1', 3)], payment_status: 'PAID' });
    expect(await foWarehouses(routed.id)).toEqual([[w.west, 3]]);
    expect(await w.level(pid, w.west)).toMatchObject({ on_hand: 10, committed: 3 });
    expect(await w.level(pid, w.east)).toMatchObject({ committed: 2 });
    const o = await w.ok('GET', `/v1/ops/orders/${routed.id}`);
    expect(o.automation_trace.decisions[0].set).toEqual({ warehouse_id: w.west });
    await w.drop(r.id);
  });

  it('prefer: what the routed warehouse lacks comes from the others; only: it waits for the routed one', async () => {
    const pid = await w.product('RT-2', { [w.east]: 10, [w.west]: 1 });
    const prefer = await w.rule({ conditions: { tags_any: ['prefer'] }, actions: { warehouse_id: w.west } });
    const only = await w.rule({ conditions: { tags_any: ['only'] }, actions: { warehouse_id: w.west, warehouse_only: true } });
    const a = await w.order({ line_items: [line('RT-2', 3)], payment_status: 'PAID', tags: ['prefer'] });
    expect(await foWarehouses(a.id)).toEqual([
      [w.east, 2],
      [w.west, 1],
    ]);
    await w.t.db.prisma.$transaction((tx) => receiveStock(tx, { product_id: pid, warehouse_id: w.west, quantity: 1 }));
    const b = await w.order({ line_items: [line('RT-2', 3)], payment_status: 'PAID', tags: ['only'] });
    expect(await foWarehouses(b.id)).toEqual([[w.west, 1]]);
    const row = await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: b.id } });
    expect(row).toMatchObject({ unallocated_quantity: 2, routed_warehouse_id: w.west, routed_warehouse_only: true });
    // Later allocation keeps to the route: stock at East does not reach it, stock at West does.
    await w.t.db.prisma.$transaction((tx) => receiveStock(tx, { product_id: pid, warehouse_id: w.east, quantity: 5 }));
    await allocatePending(w.t.db, w.t.teamId);
    expect((await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: b.id } })).unallocated_quantity).toBe(2);
    await w.t.db.prisma.$transaction((tx) => receiveStock(tx, { product_id: pid, warehouse_id: w.west, quantity: 2 }));
    await allocatePending(w.t.db, w.t.teamId);
    expect((await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: b.id } })).unallocated_quantity).toBe(0);
    expect(await foWarehouses(b.id)).toEqual([[w.west, 3]]);
    await w.drop(prefer.id);
    await w.drop(only.id);
  });

  it('refuses a warehouse of no team of ours, and warehouse_only without a warehouse', async () => {
    for (const [actions, path] of [
      [{ warehouse_id: 'nope' }, 'body.actions.warehouse_id'],
      [{ warehouse_only: true, add_tags: ['x'] }, 'body.actions.warehouse_only'],
    ] as const) {
      const bad = await w.call('POST', '/v1/ops/automation-rules', { name: 'bad', conditions: {}, actions });
      expect(bad.statusCode, bad.body).toBe(400);
      expect(
        bad
          .json()
          .errors.map((e: any) => e.path)
          .join(' '),
      ).toContain(path);
    }
  });
});

describe('signature, insurance and customs actions', () => {
  it("land in the order's config, keep a person's value, are cleared on a re-run when no rule sets them, reach packages", async () => {
    const r = await w.rule({
      conditions: { country: ['US'] },
      actions: {
        delivery_confirmation: 'SIGNATURE',
        insurance_amount: 150,
        customs: { contents_type: 'GIFT', incoterm: 'DDP', customs_signer: 'Ada', customs_certify: true },
      },
    });
    await w.product('CF-1', { [w.east]: 10 });
    const order = await w.order({ line_items: [line('CF-1', 1)], payment_status: 'PAID' });
    const o = await w.ok('GET', `/v1/ops/orders/${order.id}`);
    expect(o.config).toMatchObject({
      delivery_confirmation: 'SIGNATURE',
      insurance_policy: { mode: 'amount', amount: 150 },
      contents_type: 'GIFT',
      incoterm: 'DDP',
      customs_signer: 'Ada',
      customs_certify: true,
    });
    expect(o.automation_trace.decisions[0].set).toMatchObject({
      'config.delivery_confirmation': 'SIGNATURE',
      'config.insurance_policy': { mode: 'amount', amount: 150 },
      'config.incoterm': 'DDP',
    });
    // A person's config (given on the draft) is kept; the trace says so.
    const mine = await w.order({
      line_items: [line('CF-1', 1)],
      payment_status: 'PAID',
      config: { delivery_confirmation: 'ADULT_SIGNATURE' },
    });
    const m = await w.ok('GET', `/v1/ops/orders/${mine.id}`);
    expect(m.config).toMatchObject({ delivery_confirmation: 'ADULT_SIGNATURE', incoterm: 'DDP' });
    expect(m.automation_trace.decisions[0].kept).toEqual(['config.delivery_confirmation']);
    // Packages inherit the order's config (the carriers' options at label purchase).
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id } });
    const pkg = await w.ok(
      'POST',
      '/v1/ops/packages',
      { fulfillment_order_id: fo.id, package_line_items: [{ sku: 'CF-1', quantity: 1 }] },
      201,
    );
    expect(pkg.config).toMatchObject({
      delivery_confirmation: 'SIGNATURE',
      insurance_policy: { mode: 'amount', amount: 150 },
      incoterm: 'DDP',
    });
    // The rule narrows: a re-run puts the keys no rule sets back to their defaults, the person's stays.
    await w.ok('PATCH', `/v1/ops/automation-rules/${r.id}`, { actions: { customs: { contents_type: 'SAMPLE' } } });
    const again = await w.ok('POST', `/v1/ops/orders/${mine.id}/apply-rules`);
    expect(again.config).toMatchObject({
      delivery_confirmation: 'ADULT_SIGNATURE',
      insurance_policy: { mode: 'none' },
      contents_type: 'SAMPLE',
      incoterm: null,
      customs_certify: false,
    });
    await w.drop(r.id);
  });
});

describe('rule history', () => {
  it('records who changed what and when, before and after; readable after a delete; 404 elsewhere', async () => {
    const key = await w.t.key({ permissions: ['READ_ORDERS', 'WRITE_ORDERS'] });
    const mk = await w.t.call('POST', '/v1/ops/automation-rules', {
      token: key.token,
      body: { name: 'h', conditions: { country: ['US'] }, actions: { carrier_id: 'usps' } },
    });
    expect(mk.statusCode, mk.body).toBe(201);
    const id = mk.json().id;
    await w.ok('PATCH', `/v1/ops/automation-rules/${id}`, { actions: { carrier_id: 'ups' }, enabled: false });
    await w.drop(id);
    const h = await w.ok('GET', `/v1/ops/automation-rules/${id}/versions`);
    expect(h.meta.total).toBe(3);
    expect(h.data.map((v: any) => [v.change, v.version])).toEqual([
      ['DELETED', 2],
      ['UPDATED', 2],
      ['CREATED', 1],
    ]);
    const [del, upd, created] = h.data;
    expect(created).toMatchObject({
      rule_id: id,
      key_id: key.id,
      before: null,
      after: { name: 'h', actions: { carrier_id: 'usps' }, version: 1 },
    });
    expect(created.key_name).toBeTruthy();
    expect(upd.before).toMatchObject({ enabled: true, actions: { carrier_id: 'usps' }, version: 1 });
    expect(upd.after).toMatchObject({ enabled: false, actions: { carrier_id: 'ups' }, version: 2 });
    expect(upd.key_id).not.toBe(key.id);
    expect(del).toMatchObject({ before: { version: 2 }, after: null });
    expect(Date.parse(created.created_at)).toBeGreaterThan(0);
    const page = await w.ok('GET', `/v1/ops/automation-rules/${id}/versions?limit=1&page=1`);
    expect(page.data.map((v: any) => v.change)).toEqual(['UPDATED']);
    expect((await w.call('GET', '/v1/ops/automation-rules/nope/versions')).statusCode).toBe(404);
    // Another fulfiller team's key: the rule is not theirs (404, never 403).
    const team = await createTeam(w.t.db, { name: 'Other 3PL', kind: 'FULFILLER' });
    const outsider = await w.t.key({ teamId: team.id });
    expect((await w.t.call('GET', `/v1/ops/automation-rules/${id}/versions`, { token: outsider.token })).statusCode).toBe(404);
  });
});
