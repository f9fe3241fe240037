import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedIds, line, world, type World } from './orders.fixtures.js';

// The orders list's additive filters (issue 34 item 4; docs/orders.md): merchant, shop, warehouse
// (an order with a fulfillment order there) and hold state, alone and together, with the merchant's
// name on every row; ids of other teams simply match nothing.

let w: World;
const o: Record<string, { id: string; order_number: string }> = {};
let other: string;
let shop: string;
beforeAll(async () => {
  w = await world();
  other = (await w.t.merchant()).teamId;
  await w.product('FLT-A', { [w.east]: 10 });
  await w.product('FLT-W', { [w.west]: 10 });
  await w.product('FLT-B', { [w.east]: 10 }, { merchantId: other });
  const mine = { merchant_team_id: w.merchantId, payment_status: 'PAID' };
  o.east = await w.order({ ...mine, line_items: [line('FLT-A', 1)] });
  o.west = await w.order({ ...mine, line_items: [line('FLT-W', 1)] });
  o.other = await w.order({ merchant_team_id: other, payment_status: 'PAID', line_items: [line('FLT-B', 1)] });
  o.held = await w.order({ ...mine, line_items: [line('FLT-A', 1)] });
  const hold = await w.call('POST', `/v1/ops/orders/${o.held.id}/holds`, { reason: 'MANUAL' });
  expect(hold.statusCode, hold.body).toBe(201);
  shop = (
    await w.t.db.prisma.shop.create({ data: { merchant_team_id: other, fulfiller_team_id: w.t.teamId, name: 'Other shop', slug: 'o' } })
  ).id;
  await w.t.db.prisma.order.update({ where: { id: o.other.id }, data: { shop_id: shop } });
}, 120_000);
afterAll(() => w?.t.close());

async function ids(query: string) {
  const r = await w.call('GET', `/v1/ops/orders/list?${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.map((x: any) => x.id);
}

describe('orders list filters', () => {
  it('filters by merchant, shop, warehouse and hold state, alone and together', async () => {
    expect(await ids(`merchant_team_id=${other}`)).toEqual([o.other.id]);
    expect(await ids(`merchant_team_id=${w.merchantId},${other}&order=asc`)).toEqual([o.east.id, o.west.id, o.other.id, o.held.id]);
    expect(await ids(`shop_id=${shop}`)).toEqual([o.other.id]);
    expect(await ids(`warehouse_id=${w.west}`)).toEqual([o.west.id]);
    expect(await ids(`warehouse_id=${w.east}&order=asc`)).toEqual([o.east.id, o.other.id, o.held.id]);
    expect(await ids('on_hold=true')).toEqual([o.held.id]);
    expect(await ids('on_hold=false&order=asc')).toEqual([o.east.id, o.west.id, o.other.id]);
    expect(await ids(`warehouse_id=${w.east}&on_hold=false&merchant_team_id=${w.merchantId}`)).toEqual([o.east.id]);
    expect(await ids('merchant_team_id=00000000-0000-7000-8000-000000000000')).toEqual([]);
  });

  it('shows the merchant on every row, pages with a cursor, exports with the filters and refuses bad values', async () => {
    const first = await w.call('GET', `/v1/ops/orders/list?warehouse_id=${w.east}&limit=2&order=asc`);
    const name = async (id: string) => (await w.t.db.prisma.team.findUniqueOrThrow({ where: { id } })).name;
    expect(first.json().data.map((x: any) => [x.order_number, x.merchant_team_name])).toEqual([
      [o.east.order_number, await name(w.merchantId)],
      [o.other.order_number, await name(other)],
    ]);
    const next = await w.call(
      'GET',
      `/v1/ops/orders/list?warehouse_id=${w.east}&limit=2&order=asc&cursor=${first.json().meta.next_cursor}`,
    );
    expect(next.json().data.map((x: any) => x.id)).toEqual([o.held.id]);
    expect(await exportedIds(w, 'on_hold=true')).toEqual([o.held.id]);
    expect((await w.call('GET', '/v1/ops/orders/list?on_hold=maybe')).statusCode).toBe(400);
  });

  it('takes exact merchant and shop names for their ids; an unknown name is a 400 naming it', async () => {
    const name = (await w.t.db.prisma.team.findUniqueOrThrow({ where: { id: other } })).name;
    expect(await ids(`merchant_team_id=${encodeURIComponent(name)}`)).toEqual([o.other.id]);
    expect(await ids('shop_id=Other%20shop')).toEqual([o.other.id]);
    const unknown = await w.call('GET', '/v1/ops/orders/list?shop_id=No%20such%20shop');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('no shop of this team is named \\"No such shop\\"');
  });
});
