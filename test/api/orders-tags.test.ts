import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intakeOrder } from '../../src/domain/channels/intake.js';
import type { ChannelOrder } from '../../src/connectors/channels/types.js';
import { exportedIds, line, world, type World } from './orders.fixtures.js';

// The orders list's ?tag= filter (issue 34 item 4; docs/orders.md): order_tags follows every write
// of an order's tags (creation, PATCH, channel intake), and the migration back-fills it.

let w: World;
const o: Record<string, { id: string; order_number: string }> = {};
beforeAll(async () => {
  w = await world();
  await w.product('TAG-A', { [w.east]: 50 });
  const mine = { merchant_team_id: w.merchantId, payment_status: 'PAID', line_items: [line('TAG-A', 1)] };
  o.wholesale = await w.order({ ...mine, tags: ['wholesale', 'b2b'] });
  o.web = await w.order({ ...mine, tags: ['web'] });
  o.none = await w.order({ ...mine });
}, 120_000);
afterAll(() => w?.t.close());

async function ids(query: string) {
  const r = await w.call('GET', `/v1/ops/orders/list?${query}&order=asc`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.map((x: any) => x.id);
}
const rows = async (orderId: string) =>
  (await w.t.db.prisma.orderTag.findMany({ where: { order_id: orderId }, orderBy: { tag: 'asc' } })).map((r) => r.tag);

describe('orders list ?tag=', () => {
  it('lists orders having any of the tags; export takes the same filter', async () => {
    expect(await ids('tag=wholesale')).toEqual([o.wholesale.id]);
    expect(await ids('tag=web,b2b')).toEqual([o.wholesale.id, o.web.id]);
    expect(await ids('tag=Wholesale')).toEqual([]);
    expect(await ids(`tag=web&merchant_team_id=${w.merchantId}&on_hold=false`)).toEqual([o.web.id]);
    expect(await exportedIds(w, 'tag=web')).toEqual([o.web.id]);
  });

  it('follows tags changed by PATCH', async () => {
    const r = await w.call('PATCH', `/v1/ops/orders/${o.web.id}`, { tags: ['rush', 'web', 'rush'] });
    expect(r.statusCode, r.body).toBe(200);
    expect(await rows(o.web.id)).toEqual(['rush', 'web']);
    expect(await ids('tag=rush')).toEqual([o.web.id]);
    const cleared = await w.call('PATCH', `/v1/ops/orders/${o.web.id}`, { tags: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await rows(o.web.id)).toEqual([]);
    expect(await ids('tag=web,rush')).toEqual([]);
    // A PATCH without tags leaves them as they are.
    const note = await w.call('PATCH', `/v1/ops/orders/${o.wholesale.id}`, { note: 'call first' });
    expect(note.statusCode, note.body).toBe(200);
    expect(await rows(o.wholesale.id)).toEqual(['b2b', 'wholesale']);
  });

  it('indexes the tags of an order taken in from a channel', async () => {
    const shop = await w.t.db.prisma.shop.create({
      data: { merchant_team_id: w.merchantId, fulfiller_team_id: w.t.teamId, name: 'Tag shop', slug: 'tag-shop', shop_type: 'SHOPIFY' },
    });
    const order: ChannelOrder = {
      remote_id: 'R-1',
      order_number: '#T-1',
      updated_at: null,
      cancelled: false,
      paid: true,
      currency: 'USD',
      note: null,
      tags: ['marketplace', 'marketplace', 'gift'],
      email: null,
      customer_name: 'Chan Nel',
      phone: null,
      shipping_address: null,
      billing_address: null,
      shipping_method: null,
      total_tax: 0,
      total_shipping: 0,
      metadata: [],
      lines: [{ remote_id: 'L-1', remote_variant_id: null, sku: 'TAG-A', name: 'Tag A', quantity: 1, price: 5, discount: 0 }],
    };
    const res = await intakeOrder(w.t.db, shop as never, order);
    expect(res.action).toBe('created');
    expect(await rows(res.order_id!)).toEqual(['gift', 'marketplace']);
    expect(await ids('tag=gift')).toEqual([res.order_id]);
  });

  it("the migration's back-fill rebuilds order_tags from orders.tags", async () => {
    await w.t.db.prisma.orderTag.deleteMany({});
    // A tag list with a duplicate and a non-string, as old rows may hold.
    await w.t.db.prisma.order.update({ where: { id: o.none.id }, data: { tags: ['legacy', 'legacy', 7] } });
    const provider = w.t.db.provider === 'sqlite' ? 'sqlite' : 'postgresql';
    const dir = new URL(`../../prisma/migrations/${provider}/`, import.meta.url);
    const sql = readFileSync(new URL('20261128110032_order_tags/migration.sql', dir), 'utf8');
    const backfill = sql.slice(sql.indexOf('-- Back-fill'));
    await w.t.db.prisma.$executeRawUnsafe(
      backfill
        .replace(/^--.*$/gm, '')
        .trim()
        .replace(/;$/, ''),
    );
    expect(await rows(o.none.id)).toEqual(['legacy']);
    expect(await rows(o.wholesale.id)).toEqual(['b2b', 'wholesale']);
    expect(await ids('tag=legacy')).toEqual([o.none.id]);
    expect(await w.t.db.prisma.orderTag.count()).toBe(5); // legacy, b2b, wholesale, gift, marketplace
  });
});
