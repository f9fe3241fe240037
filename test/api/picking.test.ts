import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';

const ENTRY_FIELDS = [
  'fulfillment_order_id',
  'picking_session_id',
  'order_number',
  'status',
  'tote_id',
  'tote_name',
  'packing_started_at',
  'packing_completed_at',
  'packed_by_user_id',
  'packed_by_user_name',
  'created_at',
  'updated_at',
  // Extensions of issue 28 (pick scans; docs/floor.md).
  'picked_by_user_id',
  'picked_by_user_name',
  'picked_quantity',
  'short_picked',
].sort();

let t: TestApp;
let token: string;
let other: { teamId: string; token: string };
let merchantTeamId: string;
let warehouseId: string;

const literal = (sessionId: string) => `/v1/ops/v1/picking-sessions/${sessionId}/fulfillment-orders`;
const numbers = (body: { data: Array<{ order_number: string }> }) => body.data.map((e) => e.order_number);

let created = Date.parse('2024-01-01T00:00:00Z');
async function fo(teamId: string, orderNumber: string, status = 'ACCEPTED', extra: Record<string, unknown> = {}) {
  created += 60_000; // distinct, increasing created_at whatever the clock resolution
  const order = await t.db.prisma.order.create({
    data: { order_number: orderNumber, merchant_team_id: merchantTeamId, fulfiller_team_id: teamId, tags: [], line_item_image_urls: [] },
  });
  return t.db.prisma.fulfillmentOrder.create({
    data: {
      order_id: order.id,
      warehouse_id: warehouseId,
      fulfiller_team_id: teamId,
      merchant_team_id: merchantTeamId,
      status,
      created_at: new Date(created),
      ...extra,
    },
  });
}

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchantTeamId = (await t.merchant()).teamId;
  warehouseId = (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'WH' })).id;
  const otherTeam = await teams.createTeam(t.db, { name: 'Other DC', kind: 'FULFILLER' });
  other = { teamId: otherTeam.id, token: (await t.key({ teamId: otherTeam.id, tier: 4 })).token };
});
afterAll(() => t?.close());

describe('picking sessions', () => {
  let session: { id: string };
  let toteA: { id: string; name: string };
  const fos: Record<string, { id: string }> = {};

  it('creates sessions and totes', async () => {
    const res = await t.call('POST', '/v1/ops/picking-sessions', { token, body: { name: 'Morning wave' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Morning wave', team_id: t.teamId, fulfillment_order_count: 0 });
    session = res.json();
    const tote = await t.call('POST', '/v1/ops/totes', { token, body: { name: 'Tote A' } });
    expect(tote.statusCode).toBe(201);
    toteA = tote.json();
    expect((await t.call('POST', '/v1/ops/picking-sessions', { token, body: { name: '' } })).statusCode).toBe(400);
    expect((await t.call('POST', '/v1/ops/picking-sessions', { token, body: { name: 'x', nope: 1 } })).statusCode).toBe(400);
    expect((await t.call('GET', '/v1/ops/totes', { token })).json().data.map((x: { name: string }) => x.name)).toEqual(['Tote A']);
  });

  it('assigns fulfillment orders of the team, all or nothing', async () => {
    const packedAt = new Date('2024-05-01T10:00:00Z');
    fos['#1003'] = await fo(t.teamId, '#1003');
    fos['#1001'] = await fo(t.teamId, '#1001', 'PENDING', {
      packing_started_at: packedAt,
      packed_by_user_id: 'u1',
      packed_by_user_name: 'Ana',
    });
    fos['#1005'] = await fo(t.teamId, '#1005', 'IN_PROGRESS');
    fos['#1002'] = await fo(t.teamId, '#1002');
    fos['#1004'] = await fo(t.teamId, '#1004');
    const res = await t.call('POST', `/v1/ops/picking-sessions/${session.id}/fulfillment-orders`, {
      token,
      body: { fulfillment_order_ids: [fos['#1003']!.id, fos['#1001']!.id], tote_id: toteA.id },
    });
    expect(res.statusCode).toBe(200);
    const entries = res.json().data;
    expect(entries.map((e: { order_number: string }) => e.order_number)).toEqual(['#1003', '#1001']);
    expect(Object.keys(entries[1]).sort()).toEqual(ENTRY_FIELDS);
    expect(entries[1]).toMatchObject({
      fulfillment_order_id: fos['#1001']!.id,
      picking_session_id: session.id,
      status: 'PENDING',
      tote_id: toteA.id,
      tote_name: 'Tote A',
      packing_started_at: packedAt.toISOString(),
      packing_completed_at: null,
      packed_by_user_id: 'u1',
      packed_by_user_name: 'Ana',
    });
    const rest = await t.call('POST', `/v1/ops/picking-sessions/${session.id}/fulfillment-orders`, {
      token,
      body: { fulfillment_order_ids: [fos['#1005']!.id, fos['#1002']!.id, fos['#1004']!.id] },
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().data.every((e: { tote_id: null }) => e.tote_id === null)).toBe(true);

    // Refusals change nothing.
    const second = (await t.call('POST', '/v1/ops/picking-sessions', { token, body: { name: 'Second' } })).json();
    const free = await fo(t.teamId, '#2001');
    const foreign = await fo(other.teamId, '#9001');
    const done = await fo(t.teamId, '#2002', 'FULFILLED');
    const cases: Array<[unknown, number]> = [
      [{ fulfillment_order_ids: [free.id, fos['#1003']!.id] }, 409], // already in another session
      [{ fulfillment_order_ids: [free.id, foreign.id] }, 404],
      [{ fulfillment_order_ids: [free.id, done.id] }, 409],
      [{ fulfillment_order_ids: [free.id], tote_id: 'nope' }, 404],
      [{ fulfillment_order_ids: [] }, 400],
      [{ fulfillment_order_ids: [free.id, free.id] }, 400],
    ];
    for (const [body, status] of cases) {
      const r = await t.call('POST', `/v1/ops/picking-sessions/${second.id}/fulfillment-orders`, { token, body });
      expect(r.statusCode).toBe(status);
    }
    expect((await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: free.id } })).picking_session_id).toBeNull();
    expect(
      (
        await t.call('POST', `/v1/ops/picking-sessions/${session.id}/fulfillment-orders`, {
          token: other.token,
          body: { fulfillment_order_ids: [foreign.id] },
        })
      ).statusCode,
    ).toBe(404);

    // Fulfilled after assignment: still listed, as FULFILLED.
    await t.db.prisma.fulfillmentOrder.update({
      where: { id: fos['#1004']!.id },
      data: { status: 'FULFILLED', packing_completed_at: new Date() },
    });
    const listed = (await t.call('GET', '/v1/ops/picking-sessions', { token })).json();
    expect(listed.data.find((s: { id: string }) => s.id === session.id).fulfillment_order_count).toBe(5);
    expect((await t.call('GET', `/v1/ops/picking-sessions/${session.id}`, { token })).json().fulfillment_order_count).toBe(5);
  });

  it("lists entries at the spec's literal path, by order_number asc by default, 10 per page", async () => {
    const res = await t.call('GET', literal(session.id), { token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(numbers(body)).toEqual(['#1001', '#1002', '#1003', '#1004', '#1005']);
    expect(body.data.map((e: { status: string }) => e.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'FULFILLED', 'PENDING']);
    expect(body.data.every((e: object) => Object.keys(e).sort().join() === ENTRY_FIELDS.join())).toBe(true);
    expect(body.meta).toEqual({
      page: 0,
      page_size: 10,
      start_index: 1,
      end_index: 5,
      has_next_page: false,
      next_cursor: null,
      has_previous_page: false,
      total: 5,
    });
    expect(body.data[2]).toMatchObject({ tote_name: 'Tote A', tote_id: toteA.id });
  });

  it('filters by status PENDING / FULFILLED', async () => {
    expect(numbers((await t.call('GET', literal(session.id), { token, query: { status: 'PENDING' } })).json())).toEqual([
      '#1001',
      '#1002',
      '#1003',
      '#1005',
    ]);
    const fulfilled = (await t.call('GET', literal(session.id), { token, query: { status: 'FULFILLED' } })).json();
    expect(numbers(fulfilled)).toEqual(['#1004']);
    expect(fulfilled.meta.total).toBe(1);
    for (const status of ['ACCEPTED', 'IN_PROGRESS', 'pending']) {
      expect((await t.call('GET', literal(session.id), { token, query: { status } })).statusCode).toBe(400);
    }
  });

  it('sorts by order_number, created_at, updated_at in both directions', async () => {
    expect(numbers((await t.call('GET', literal(session.id), { token, query: { order: 'desc' } })).json())).toEqual([
      '#1005',
      '#1004',
      '#1003',
      '#1002',
      '#1001',
    ]);
    expect(numbers((await t.call('GET', literal(session.id), { token, query: { order_by: 'created_at' } })).json())).toEqual([
      '#1003',
      '#1001',
      '#1005',
      '#1002',
      '#1004',
    ]);
    expect(numbers((await t.call('GET', literal(session.id), { token, query: { order_by: 'created_at', order: 'desc' } })).json())).toEqual(
      ['#1004', '#1002', '#1005', '#1001', '#1003'],
    );
    const byUpdate = numbers(
      (await t.call('GET', literal(session.id), { token, query: { order_by: 'updated_at', order: 'desc' } })).json(),
    );
    expect(byUpdate[0]).toBe('#1004'); // updated last
    expect((await t.call('GET', literal(session.id), { token, query: { order_by: 'name' } })).statusCode).toBe(400);
    expect((await t.call('GET', literal(session.id), { token, query: { order: 'up' } })).statusCode).toBe(400);
  });

  it('pages with limit 1..50 (51 -> 400), 0-based', async () => {
    const p1 = (await t.call('GET', literal(session.id), { token, query: { limit: 2, page: 1 } })).json();
    expect(numbers(p1)).toEqual(['#1003', '#1004']);
    expect(p1.meta).toEqual({
      page: 1,
      page_size: 2,
      start_index: 3,
      end_index: 4,
      has_next_page: true,
      next_cursor: null,
      has_previous_page: true,
      total: 5,
    });
    const p2 = (await t.call('GET', literal(session.id), { token, query: { limit: 2, page: 2 } })).json();
    expect(numbers(p2)).toEqual(['#1005']);
    expect(p2.meta.has_next_page).toBe(false);
    expect((await t.call('GET', literal(session.id), { token, query: { limit: 50 } })).statusCode).toBe(200);
    for (const query of [{ limit: 51 }, { limit: 0 }, { page: -1 }, { limit: 'ten' }] as Array<Record<string, string | number>>) {
      const res = await t.call('GET', literal(session.id), { token, query });
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe('urn:fos:error:validation-failed');
    }
  });

  it('answers 404 for unknown sessions and sessions of other teams', async () => {
    expect((await t.call('GET', literal('nope'), { token })).statusCode).toBe(404);
    expect((await t.call('GET', literal(session.id), { token: other.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/v1/ops/picking-sessions/${session.id}`, { token: other.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/v1/ops/picking-sessions', { token: other.token })).json().data).toHaveLength(0);
  });

  it('needs READ_FULFILLMENTS / WRITE_FULFILLMENTS and a fulfiller key', async () => {
    const reader = await t.key({ permissions: ['READ_FULFILLMENTS'] });
    expect((await t.call('GET', literal(session.id), { token: reader.token })).statusCode).toBe(200);
    expect((await t.call('POST', '/v1/ops/picking-sessions', { token: reader.token, body: { name: 'x' } })).statusCode).toBe(403);
    const none = await t.key({ permissions: ['READ_ORDERS'] });
    expect((await t.call('GET', literal(session.id), { token: none.token })).statusCode).toBe(403);
    const m = await t.merchant();
    expect((await t.call('GET', literal(session.id), { token: m.token })).statusCode).toBe(403);
  });
});
