import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, line } from './orders.fixtures.js';
import { rulesWorld, type RulesWorld } from '../helpers/rules-world.js';

// Carrier selection on draft orders (issue 41, docs/automation.md): the spec 2.6 carrier-selection
// fields and the rate strategy set by a person on the draft, shown by the draft, carried to the
// order at conversion, where the rules fill only what the person left open (the trace lists the
// rest under kept), and inherited by the order's packages.

let w: RulesWorld;
let ci: string;
beforeAll(async () => {
  w = await rulesWorld();
  ci = (await w.t.db.prisma.carrierIntegration.create({ data: { team_id: w.t.teamId, name: 'Table rates', type: 'TABLE' } })).id;
  await w.product('DS-1', { [w.east]: 20 });
});
afterAll(() => w?.t.close());

const CHOSEN = {
  carrier_integration_id: '',
  carrier_id: 'usps',
  rate_strategy: 'CHEAPEST_WITHIN_DAYS',
  rate_within_days: 4,
  rate_exclude_carrier_ids: ['dhl'],
};

describe('carrier selection on a draft order', () => {
  it('is shown by the draft, carried to the order at conversion and kept from the rules; packages inherit it', async () => {
    const rule = await w.rule({
      name: 'ground',
      conditions: {},
      actions: { carrier_id: 'ups', service_id: 'ups_ground', rate_strategy: 'FASTEST', carton_name: 'C12' },
    });
    const chosen = { ...CHOSEN, carrier_integration_id: ci };
    const draft = await w.draft({ line_items: [line('DS-1', 1)], payment_status: 'PAID', ...chosen });
    expect(draft).toMatchObject({ ...chosen, service_id: null, carton_name: null, package_preset_id: null });
    expect(await w.ok('GET', `/v1/ops/draft-orders/${draft.id}`)).toMatchObject(chosen);

    const order = await w.ok('POST', `/v1/ops/draft-orders/${draft.id}/convert`);
    const got = await w.ok('GET', `/v1/ops/orders/${order.id}`);
    expect(got).toMatchObject({
      ...chosen,
      carrier_integration_name: 'Table rates',
      service_id: 'ups_ground', // left open by the person: the rule's
      carton_name: 'C12',
    });
    expect([...got.carrier_selection_set_by_person].sort()).toEqual(Object.keys(chosen).sort());
    const [decision] = got.automation_trace.decisions;
    expect(decision.rule_id).toBe(rule.id);
    expect([...decision.kept].sort()).toEqual(['carrier_id', 'rate_strategy']);
    expect(decision.set).toEqual({ service_id: 'ups_ground', carton_name: 'C12' });

    // A re-run keeps the person's fields too.
    const again = await w.ok('POST', `/v1/ops/orders/${order.id}/apply-rules`);
    expect(again).toMatchObject({ carrier_id: 'usps', rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 4 });

    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id } });
    const pkg = await w.ok(
      'POST',
      '/v1/ops/packages',
      { fulfillment_order_id: fo.id, package_line_items: [{ sku: 'DS-1', quantity: 1 }] },
      201,
    );
    expect(pkg).toMatchObject({ carrier_id: 'usps', service_id: 'ups_ground', carrier_integration_id: ci });
    const row = await w.t.db.prisma.package.findUniqueOrThrow({ where: { id: pkg.id } });
    expect(row).toMatchObject({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 4, rate_exclude_carrier_ids: ['dhl'] });
    await w.drop(rule.id);
  });

  it('a draft without a selection converts as before: the rules decide every field', async () => {
    const rule = await w.rule({ conditions: {}, actions: { carrier_id: 'ups', rate_strategy: 'FASTEST' } });
    const draft = await w.draft({ line_items: [line('DS-1', 1)] });
    expect(draft).toMatchObject({ carrier_id: null, rate_strategy: null, rate_exclude_carrier_ids: null });
    const order = await w.ok('POST', `/v1/ops/draft-orders/${draft.id}/convert`);
    const got = await w.ok('GET', `/v1/ops/orders/${order.id}`);
    expect(got).toMatchObject({ carrier_id: 'ups', rate_strategy: 'FASTEST' });
    expect(got.carrier_selection_set_by_person).toBeUndefined();
    expect(got.automation_trace.decisions[0].kept).toEqual([]);
    await w.drop(rule.id);
  });

  it('refuses a bad selection with its path', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ carrier_integration_id: 'nope' }, 'body.carrier_integration_id'],
      [{ rate_strategy: 'CHEAPEST_WITHIN_DAYS' }, 'body.rate_within_days'],
      [{ rate_strategy: 'FASTEST', rate_within_days: 2 }, 'body.rate_within_days'],
      [{ rate_strategy: 'SLOWEST' }, 'body.rate_strategy'],
      [{ rate_exclude_carrier_ids: [] }, 'body.rate_exclude_carrier_ids'],
    ];
    for (const [body, path] of cases) {
      const r = await w.call('POST', '/v1/ops/draft-orders', { shipping_address: ADDRESS, line_items: [line('DS-1', 1)], ...body });
      expect(r.statusCode, r.body).toBe(400);
      expect(
        r
          .json()
          .errors.map((e: any) => e.path)
          .join(' '),
        r.body,
      ).toContain(path);
    }
  });
});
