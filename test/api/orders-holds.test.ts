import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { httpCall, otherFulfiller } from './inventory.fixtures.js';
import { issueTokens } from '../../src/domain/oauth/tokens.js';
import { person } from '../helpers/oauth.js';

// Holds (issue 25 item 2): placed and released by people; while one is active the order's
// fulfillment orders cannot be locked, packed, labelled or fulfilled (409 on-hold naming the hold);
// created_by_user_id is the person when an agent connection acts; releasing the last hold runs
// allocation.

let w: World;
let base: string;
let other: { token: string };
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  other = await otherFulfiller(w.t);
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, token = w.token) => httpCall(base, token, method, path, body);
const LABEL = {
  label_url: 'https://labels.example/l.pdf',
  tracking_number: 'TRK-HOLD-1',
  carrier: 'USPS',
  service: 'Priority',
  cost: 7.1,
  cost_currency: 'USD',
};
const foOf = (orderId: string) =>
  w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: orderId }, include: { line_items: true } });

/** An agent connection's access token for a new person of the team (what the MCP consent issues; it works at /mcp). */
async function agentToken() {
  const pat = await person(w.t.db, w.t.teamId);
  const c = await w.t.db.prisma.mcpConnection.create({
    data: {
      team_id: w.t.teamId,
      user_id: pat.id,
      client_id: 'test-client',
      client_name: 'Test',
      name: 'Test agent',
      preset: 'READ_AND_OPERATE',
      permissions: ['READ_ORDERS', 'WRITE_ORDERS'],
    },
  });
  return { userId: pat.id, token: (await issueTokens(w.t.db.prisma, c.id, null)).access_token };
}

describe('order holds', () => {
  it('a hold blocks lock, pack, label and fulfill with a 409 naming it; release lets the work go on', async () => {
    await w.product('HOLD-1', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('HOLD-1', 2)], payment_status: 'PAID' });
    const fo = await foOf(order.id);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);

    const placed = await http('POST', `/v1/ops/orders/${order.id}/holds`, {
      reason: 'ADDRESS_VERIFICATION_FAILED',
      reason_notes: 'carrier says no such street',
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({
      order_id: order.id,
      active: true,
      reason: 'ADDRESS_VERIFICATION_FAILED',
      reason_notes: 'carrier says no such street',
      created_by_user_id: null,
    });
    const holdId = placed.body.id;

    const lock = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 5 });
    expect(lock.status).toBe(409);
    expect(lock.body).toMatchObject({ type: 'urn:fos:error:on-hold', hold_id: holdId, hold_reason: 'ADDRESS_VERIFICATION_FAILED' });
    expect(lock.body.detail).toContain(`hold ${holdId}`);
    const pack = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo.id,
      weight: 300,
      weight_unit: 'G',
      package_line_items: [{ sku: 'HOLD-1', quantity: 2 }],
    });
    expect(pack.status).toBe(409);
    expect(pack.body).toMatchObject({ type: 'urn:fos:error:on-hold', hold_id: holdId });

    const order2 = (await http('GET', `/v1/ops/orders/${order.id}`)).body;
    expect(order2.order_fulfillment_holds).toEqual([expect.objectContaining({ id: holdId, active: true })]);
    expect((await http('GET', `/v1/ops/orders/${order.id}/holds`)).body.data).toHaveLength(1);

    const released = await http('POST', `/v1/ops/orders/${order.id}/holds/${holdId}/release`);
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body).toMatchObject({ id: holdId, active: false });
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds/${holdId}/release`)).status).toBe(409);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 5 })).status).toBe(200);
    const pkg = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo.id,
      weight: 300,
      weight_unit: 'G',
      package_line_items: [{ sku: 'HOLD-1', quantity: 2 }],
    });
    expect(pkg.status).toBe(201);

    // A hold placed after packing stops the label (before anything is bought) and the fulfill.
    const late = await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'FRAUD_REVIEW' });
    expect(late.status).toBe(201);
    const label = await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, LABEL);
    expect(label.status).toBe(409);
    expect(label.body).toMatchObject({ type: 'urn:fos:error:on-hold', hold_id: late.body.id, hold_reason: 'FRAUD_REVIEW' });
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds/${late.body.id}/release`)).status).toBe(200);
    expect((await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, LABEL)).status).toBe(200);
    const events = await w.t.db.prisma.outboxEvent.findMany({ where: { kind: { in: ['order.hold_placed', 'order.hold_released'] } } });
    expect(
      events
        .filter((e) => (e.payload as { order_id: string }).order_id === order.id)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(['order.hold_placed', 'order.hold_placed', 'order.hold_released', 'order.hold_released']);
  });

  it('records the person who placed it when an agent connection acts', async () => {
    await w.product('HOLD-2', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('HOLD-2', 1)], payment_status: 'PAID' });
    const agent = await agentToken();
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${agent.token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'execute_svc_operation',
          arguments: {
            confirm_write: true,
            operation_key: 'POST /v1/ops/orders/{order_id}/holds',
            path_params: { order_id: order.id },
            body: { reason: 'CUSTOMER_REQUEST', reason_notes: 'wait for the gift note' },
          },
        },
      }),
    });
    const placed = (await res.json()).result.structuredContent as { status: number; body: any };
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.created_by_user_id).toBe(agent.userId);
  });

  it('refuses unknown reasons and fields, closed orders, other teams, and AWAITING_PAYMENT releases', async () => {
    await w.product('HOLD-3', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('HOLD-3', 1)], payment_status: 'PAID' });
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'BORED' })).status).toBe(400);
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'MANUAL', extra: true })).status).toBe(400);
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'MANUAL' }, other.token)).status).toBe(404);
    const hold = (await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'MANUAL' })).body;
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds/${hold.id}/release`, undefined, other.token)).status).toBe(404);
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds/00000000-0000-7000-8000-000000000000/release`)).status).toBe(404);
    expect((await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'CUSTOMER' })).status).toBe(200);
    const closed = await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'MANUAL' });
    expect(closed.status).toBe(409);
    expect(closed.body.detail).toMatch(/is CANCELLED; holds apply to open orders only/);

    const unpaid = await w.order({ line_items: [line('HOLD-3', 1)] });
    const payment = unpaid.order_fulfillment_holds[0];
    expect(payment.reason).toBe('AWAITING_PAYMENT');
    const refused = await http('POST', `/v1/ops/orders/${unpaid.id}/holds/${payment.id}/release`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('mark-paid');
  });

  it('releasing the last hold runs allocation of waiting units', async () => {
    const p = await w.product('HOLD-4', { [w.east]: 0 });
    const order = await w.order({ line_items: [line('HOLD-4', 2)], payment_status: 'PAID' });
    expect(order.core_order_line_items[0]).toBeDefined();
    const a = (await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'MANUAL' })).body;
    const b = (await http('POST', `/v1/ops/orders/${order.id}/holds`, { reason: 'FRAUD_REVIEW' })).body;
    // Stock written behind the ledger's back (as an import might): only an allocation run finds it.
    await w.t.db.prisma.inventoryLevel.update({
      where: { product_id_warehouse_id: { product_id: p, warehouse_id: w.east } },
      data: { on_hand: 2 },
    });
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds/${a.id}/release`)).status).toBe(200);
    expect(await w.t.db.prisma.fulfillmentOrder.count({ where: { order_id: order.id } })).toBe(0);
    expect((await http('POST', `/v1/ops/orders/${order.id}/holds/${b.id}/release`)).status).toBe(200);
    const fo = await foOf(order.id);
    expect(fo.line_items[0].quantity).toBe(2);
    expect(await w.level(p, w.east)).toMatchObject({ committed: 2 });
  });
});
