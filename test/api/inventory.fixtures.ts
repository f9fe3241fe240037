// Shared by the inventory tests: HTTP through a real listener (so requests really run in
// parallel), the ledger balance check, and a complete fulfillment of an order.

import { expect } from 'vitest';
import type { Db } from '../../src/db/types.js';
import * as teams from '../../src/domain/teams/teams.js';
import type { TestApp } from '../helpers/app.js';

export type Http = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export async function httpCall(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Every level of the products against the sums of its movements, bucket by bucket; none negative. */
export async function ledgerBalanced(db: Db, productIds: string[]) {
  const levels = await db.prisma.inventoryLevel.findMany({ where: { product_id: { in: productIds } } });
  const sums = await db.prisma.inventoryMovement.groupBy({
    by: ['product_id', 'warehouse_id', 'bucket'],
    where: { product_id: { in: productIds } },
    _sum: { delta: true },
  });
  const sum = (l: { product_id: string; warehouse_id: string }, bucket: string) =>
    sums.find((s) => s.product_id === l.product_id && s.warehouse_id === l.warehouse_id && s.bucket === bucket)?._sum.delta ?? 0;
  expect(levels.length).toBeGreaterThan(0);
  for (const l of levels) {
    for (const b of ['on_hand', 'committed', 'unavailable', 'on_order'] as const) {
      expect(sum(l, b), `${b} of ${l.product_id}@${l.warehouse_id}`).toBe(l[b]);
      expect(l[b]).toBeGreaterThanOrEqual(0);
    }
  }
  return levels;
}

/** Accept, lock, pack, label and fulfill every fulfillment order of the order; the fulfill statuses. */
export async function fulfillOrder(db: Db, http: Http, orderId: string) {
  const fos = await db.prisma.fulfillmentOrder.findMany({ where: { order_id: orderId }, include: { line_items: true } });
  const done: number[] = [];
  for (const fo of fos) {
    const accepted = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'p', timeout_minutes: 5 })).status).toBe(200);
    const pkg = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo.id,
      weight: 500,
      weight_unit: 'G',
      package_line_items: fo.line_items.map((l) => ({ sku: l.sku, quantity: l.quantity })),
    });
    expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
    const label = await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, {
      label_url: 'https://labels.example/l.pdf',
      tracking_number: `TRK${pkg.body.id.slice(-10)}`,
      carrier: 'USPS',
      service: 'Priority',
      cost: 7.1,
      cost_currency: 'USD',
    });
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    done.push((await http('POST', `/v1/ops/packages/${pkg.body.id}/fulfill`, { locked_by: 'p' })).status);
  }
  return done;
}

/** Another fulfiller team with a tier-4 key and a warehouse: its ids must answer 404 to ours and back. */
export async function otherFulfiller(t: TestApp) {
  const team = await teams.createTeam(t.db, { name: 'Other DC', kind: 'FULFILLER' });
  return {
    token: (await t.key({ teamId: team.id, tier: 4 })).token,
    warehouse: (await teams.createWarehouse(t.db, { team_id: team.id, name: 'Far' })).id,
  };
}
