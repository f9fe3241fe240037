import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { loadDemo } from '../../src/server/demo/demo.js';

// POST /v1/ops/inventory/adjustments with dry_run: every line checked and computed, nothing
// written (levels, movements, the outbox); each line carries its figures before the adjustment.

let t: TestApp;
let token: string;
let warehouse: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  await loadDemo(t.db);
  warehouse = (await t.db.prisma.warehouse.findFirstOrThrow({ where: { name: 'Portland DC' } })).id;
});
afterAll(() => t?.close());

const counts = async () => ({
  movements: await t.db.prisma.inventoryMovement.count(),
  levels: JSON.stringify(await t.db.prisma.inventoryLevel.findMany({ orderBy: { id: 'asc' } })),
  outbox: await t.db.prisma.outboxEvent.count(),
});
const adjust = (body: object) =>
  t.call('POST', '/v1/ops/inventory/adjustments', { token, body: { warehouse_id: warehouse, reason: 'CYCLE_COUNT', ...body } });

describe('adjustment dry run', () => {
  it('answers what would change, with before and after figures, and writes nothing', async () => {
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { warehouse_id: warehouse, product: { sku: 'ACME-STOVE' } } });
    const before = await counts();
    const res = await adjust({ dry_run: true, lines: [{ sku: 'ACME-STOVE', counted: level.on_hand + 3 }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ dry_run: true, warehouse_name: 'Portland DC' });
    expect(res.json().lines[0]).toMatchObject({
      sku: 'ACME-STOVE',
      delta: 3,
      counted: level.on_hand + 3,
      on_hand: level.on_hand + 3,
      before: { on_hand: level.on_hand, committed: level.committed },
    });
    expect(await counts()).toEqual(before);

    const real = await adjust({ lines: [{ sku: 'ACME-STOVE', counted: level.on_hand + 3 }] });
    expect(real.statusCode).toBe(201);
    expect(real.json()).not.toHaveProperty('dry_run');
    expect(real.json().lines[0]).toMatchObject({ delta: 3, on_hand: level.on_hand + 3, before: { on_hand: level.on_hand } });
    expect((await counts()).movements).toBe(before.movements + 1);
  });

  it('refuses what the real request would refuse: an unknown SKU (404 naming the line)', async () => {
    const before = await counts();
    const res = await adjust({
      dry_run: true,
      lines: [
        { sku: 'ACME-STOVE', counted: 1 },
        { sku: 'NOPE', counted: 1 },
      ],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toContain('lines[1]');
    expect(await counts()).toEqual(before);
  });
});
