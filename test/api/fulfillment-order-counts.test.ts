import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFulfillmentOrders, foldFulfillmentOrderCounts } from '../../src/domain/fulfillment/counts.js';
import { startCountFolder } from '../../src/server/workers/counts.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/until.js';

// The fulfillment-order list's meta.total comes from counts kept by triggers (migration
// fulfillment_order_counts; on PostgreSQL deltas folded by each server). It must equal a real COUNT
// for every filter, after inserts, status changes, moves between warehouses, deletes and concurrent
// writes, before and after a fold.

let t: TestApp;
let token: string;
let otherWarehouse: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  otherWarehouse = (
    await t.db.prisma.warehouse.create({
      data: { team_id: t.teamId, name: 'Second Warehouse', address1: '1 Pier', city: 'Oakland', state: 'CA', zip: '94607', country: 'US' },
    })
  ).id;
});
afterAll(() => t?.close());

const STATUS_FILTERS = [undefined, ['PENDING'], ['ACCEPTED', 'IN_PROGRESS'], ['FULFILLED', 'CANCELLED']];

/** meta.total of every filter combination, beside a COUNT of the rows themselves. */
async function totalsAgree() {
  const warehouses = [
    undefined,
    ...(await t.db.prisma.warehouse.findMany({ where: { team_id: t.teamId }, select: { id: true } })).map((w) => w.id),
  ];
  for (const warehouse_id of warehouses) {
    for (const status of STATUS_FILTERS) {
      const q = new URLSearchParams({
        limit: '1',
        ...(status ? { status: status.join(',') } : {}),
        ...(warehouse_id ? { warehouse_id } : {}),
      });
      const res = await t.call('GET', `/v1/ops/fulfillment-orders?${q}`, { token });
      expect(res.statusCode).toBe(200);
      const truth = await t.db.prisma.fulfillmentOrder.count({
        where: { fulfiller_team_id: t.teamId, ...(status ? { status: { in: status } } : {}), ...(warehouse_id ? { warehouse_id } : {}) },
      });
      expect(res.json().meta.total, `status=${status} warehouse=${warehouse_id}`).toBe(truth);
    }
  }
}

describe('fulfillment order counts', () => {
  it('match a COUNT through inserts, status changes, moves and deletes, before and after a fold', async () => {
    const made = [];
    for (const status of ['PENDING', 'PENDING', 'ACCEPTED', 'IN_PROGRESS', 'FULFILLED'] as const)
      made.push(await fulfillmentFixture(t, { status }));
    await totalsAgree();

    expect((await t.call('POST', `/v1/ops/fulfillment-orders/${made[0].fo.id}/accept`, { token })).statusCode).toBe(200);
    await t.db.prisma.fulfillmentOrder.update({ where: { id: made[1].fo.id }, data: { warehouse_id: otherWarehouse } });
    await t.db.prisma.fulfillmentOrder.update({
      where: { id: made[2].fo.id },
      data: { status: 'CANCELLED', warehouse_id: otherWarehouse },
    });
    // An update that touches the counted columns without changing them moves nothing.
    await t.db.prisma.fulfillmentOrder.update({ where: { id: made[3].fo.id }, data: { status: 'IN_PROGRESS' } });
    await t.db.prisma.fulfillmentOrderLineItem.deleteMany({ where: { fulfillment_order_id: made[4].fo.id } });
    await t.db.prisma.fulfillmentOrder.delete({ where: { id: made[4].fo.id } });
    await totalsAgree();

    const folded = await foldFulfillmentOrderCounts(t.db);
    if (t.db.provider === 'postgresql') {
      expect(folded).toBeGreaterThan(0);
      expect(
        await t.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT COUNT(*)::bigint AS n FROM "fulfillment_order_count_deltas"'),
      ).toEqual([{ n: 0n }]);
      expect(await foldFulfillmentOrderCounts(t.db)).toBe(0);
    } else {
      expect(folded).toBe(0);
    }
    await totalsAgree();
  });

  it('stay exact under concurrent accepts and locks, with folds running beside them', async () => {
    const fos = [];
    for (let i = 0; i < 16; i++) fos.push(await fulfillmentFixture(t, { status: i % 2 ? 'ACCEPTED' : 'PENDING' }));
    const writes = fos.map((f, i) =>
      i % 2
        ? t.call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { token, body: { lock_owner: `packer-${i}`, timeout_minutes: 10 } })
        : t.call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/accept`, { token }),
    );
    const folds = [foldFulfillmentOrderCounts(t.db), foldFulfillmentOrderCounts(t.db), foldFulfillmentOrderCounts(t.db)];
    const results = await Promise.all(writes);
    await Promise.all(folds);
    for (const r of results) expect(r.statusCode, r.body).toBeLessThan(300);
    await totalsAgree();
    await Promise.all([foldFulfillmentOrderCounts(t.db), foldFulfillmentOrderCounts(t.db)]);
    await totalsAgree();
    expect(await countFulfillmentOrders(t.db, t.teamId, { status: ['IN_PROGRESS'] })).toBe(
      await t.db.prisma.fulfillmentOrder.count({ where: { fulfiller_team_id: t.teamId, status: 'IN_PROGRESS' } }),
    );
  });

  it("are folded by the server's worker (PostgreSQL), which stops cleanly", async () => {
    await fulfillmentFixture(t, { status: 'PENDING' });
    const deltas = async () =>
      t.db.provider === 'postgresql'
        ? Number(
            (await t.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT COUNT(*)::bigint AS n FROM "fulfillment_order_count_deltas"'))[0].n,
          )
        : 0;
    if (t.db.provider === 'postgresql') expect(await deltas()).toBeGreaterThan(0);
    const folder = startCountFolder(t.db, t.app.log, 20);
    await until(async () => (await deltas()) === 0, 'the folder to fold every delta').finally(() => folder.stop());
    expect(await deltas()).toBe(0);
    await totalsAgree();
  });

  it('keep their triggers after every migration', async () => {
    const names =
      t.db.provider === 'sqlite'
        ? (
            await t.db.prisma.$queryRawUnsafe<{ name: string }[]>(
              `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'fulfillment_orders'`,
            )
          ).map((r) => r.name)
        : (
            await t.db.prisma.$queryRawUnsafe<{ name: string }[]>(
              `SELECT tgname AS name FROM pg_trigger WHERE tgrelid = '"fulfillment_orders"'::regclass AND NOT tgisinternal`,
            )
          ).map((r) => r.name);
    expect(names.filter((n) => n.startsWith('fulfillment_order_counts')).length).toBe(t.db.provider === 'sqlite' ? 3 : 2);
  });
});
