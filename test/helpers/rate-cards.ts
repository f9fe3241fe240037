import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { fulfillmentFixture, type FixtureLine } from './fixtures.js';
import { recordSqliteStatements } from './statements.js';

// Versioned rate cards in API tests (docs/billing.md): publish a version, point a delegation at it,
// ship a package the way a packer does (lock, package, label, fulfill).

export async function publish(t: TestApp, token: string, doc: Record<string, unknown>, status = 201) {
  const res = await t.call('POST', '/v1/ops/rate-cards/versions', { token, body: doc });
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}

export async function link(t: TestApp, token: string, delegationId: string, rateCardId: string | null) {
  const res = await t.call('PUT', `/v1/ops/delegations/${delegationId}/rate-card-id`, { token, body: { rate_card_id: rateCardId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function shipPackage(
  t: TestApp,
  token: string,
  opts: { merchantTeamId: string; lines: FixtureLine[]; carton_id?: string; cost?: number; weightG?: number; record?: string[] },
) {
  const f = await fulfillmentFixture(t, { merchantTeamId: opts.merchantTeamId, lines: opts.lines, status: 'ACCEPTED' });
  const call = (method: string, url: string, body: unknown) => t.call(method, url, { token, body });
  // Only the requests' statements, when asked (SQLite): not the fixture's rows.
  const stop = opts.record ? recordSqliteStatements(opts.record) : () => undefined;
  let packageId: string;
  try {
    packageId = await ship(f, call, opts);
  } finally {
    stop();
  }
  const charges = await t.db.prisma.charge.findMany({ where: { order_id: f.order.id }, orderBy: { category: 'asc' } });
  return { f, packageId, charges, byCategory: Object.fromEntries(charges.map((c) => [c.category, c])) };
}

/** A response as ship reads it: an in-process call's, or a spawned server's (e2e). */
export type ShipCall = (method: string, url: string, body: unknown) => Promise<{ statusCode: number; body: string; json(): any }>;

/** Ships a fixture's fulfillment order as a packer does (lock, package, label, fulfill); returns the package id. */
export async function ship(
  f: Awaited<ReturnType<typeof fulfillmentFixture>>,
  call: ShipCall,
  opts: { carton_id?: string; cost?: number; weightG?: number },
) {
  const locked = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 15 });
  expect(locked.statusCode, locked.body).toBe(200);
  const pkg = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    weight: opts.weightG ?? 500,
    weight_unit: 'G',
    ...(opts.carton_id ? { carton_id: opts.carton_id } : {}),
    package_line_items: f.foLines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
  });
  expect(pkg.statusCode, pkg.body).toBe(201);
  const id = pkg.json().id as string;
  const label = await call('POST', `/v1/ops/packages/${id}/label`, {
    label_url: 'https://labels.example/l.pdf',
    tracking_number: `TRK${id.slice(-8)}`,
    carrier: 'USPS',
    service: 'Priority',
    cost: opts.cost ?? 10,
    cost_currency: 'USD',
  });
  expect(label.statusCode, label.body).toBe(200);
  const done = await call('POST', `/v1/ops/packages/${id}/fulfill`, { locked_by: 'packer' });
  expect(done.statusCode, done.body).toBe(200);
  return id;
}
