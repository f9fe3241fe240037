import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWarehouse } from '../../src/domain/teams/teams.js';
import { world, type World } from './orders.fixtures.js';
import { httpCall, otherFulfiller } from './inventory.fixtures.js';

// Locations (bins) of a warehouse (issue 28): every warehouse has a default one; CRUD, bulk from a
// range or a list, all or nothing, and the errors a floor manager meets.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

async function http(method: string, path: string, body?: unknown, token = w.token) {
  if (method !== 'DELETE') return httpCall(base, token, method, path, body);
  const res = await fetch(`${base}${path}`, { method, headers: { 'x-access-token': token } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('/v1/ops/locations', () => {
  it('gives every new warehouse a default PICKABLE location that cannot be deleted or deactivated', async () => {
    const wh = (await createWarehouse(w.t.db, { team_id: w.t.teamId, name: 'Fresh' })).id;
    const list = await http('GET', `/v1/ops/locations?warehouse_id=${wh}`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: `default-${wh}`,
        name: 'DEFAULT',
        type: 'PICKABLE',
        is_default: true,
        active: true,
        warehouse_name: 'Fresh',
      }),
    ]);
    // Over several warehouses each DEFAULT bin says whose it is.
    const both = (await http('GET', `/v1/ops/locations?warehouse_id=${wh},${w.east}&name=DEFAULT`)).body.data;
    expect(both.map((l: any) => [l.name, l.warehouse_name]).sort()).toEqual([
      ['DEFAULT', 'East'],
      ['DEFAULT', 'Fresh'],
    ]);
    expect((await http('DELETE', `/v1/ops/locations/default-${wh}`)).status).toBe(409);
    const off = await http('PATCH', `/v1/ops/locations/default-${wh}`, { active: false });
    expect(off.status).toBe(409);
    expect(off.body.detail).toMatch(/default location/);
  });

  it('creates, reads, changes and deletes a location; names and barcodes are unique per warehouse', async () => {
    const created = await http('POST', '/v1/ops/locations', { warehouse_id: w.east, name: 'R-01', barcode: 'LOC-R01', type: 'RECEIVING' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      warehouse_id: w.east,
      name: 'R-01',
      barcode: 'LOC-R01',
      type: 'RECEIVING',
      active: true,
      is_default: false,
    });
    expect(created.body.pick_sequence).toBeGreaterThan(0);
    const id = created.body.id;
    expect((await http('GET', `/v1/ops/locations/${id}`)).body).toEqual(created.body);
    const dup = await http('POST', '/v1/ops/locations', { warehouse_id: w.east, name: 'R-01' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toMatch(/name R-01 is already used/);
    expect((await http('POST', '/v1/ops/locations', { warehouse_id: w.east, name: 'R-02', barcode: 'LOC-R01' })).body.detail).toMatch(
      /barcode LOC-R01/,
    );
    // The same name in another warehouse is fine.
    expect((await http('POST', '/v1/ops/locations', { warehouse_id: w.west, name: 'R-01' })).status).toBe(201);
    const changed = await http('PATCH', `/v1/ops/locations/${id}`, { type: 'STAGING', pick_sequence: 7, active: false });
    expect(changed.body).toMatchObject({ type: 'STAGING', pick_sequence: 7, active: false });
    expect((await http('DELETE', `/v1/ops/locations/${id}`)).status).toBe(204);
    expect((await http('GET', `/v1/ops/locations/${id}`)).status).toBe(404);
  });

  it('creates a range in walk order, all or nothing', async () => {
    const r = await http('POST', '/v1/ops/locations/bulk', { warehouse_id: w.east, range: 'A-01-01..A-02-03', type: 'PICKABLE' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.created).toBe(6);
    expect(r.body.data.map((l: any) => l.name)).toEqual(['A-01-01', 'A-01-02', 'A-01-03', 'A-02-01', 'A-02-02', 'A-02-03']);
    const seqs = r.body.data.map((l: any) => l.pick_sequence);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // Overlapping the range: nothing is created.
    const again = await http('POST', '/v1/ops/locations/bulk', { warehouse_id: w.east, range: 'A-02-03..A-02-05' });
    expect(again.status).toBe(409);
    expect((await http('GET', `/v1/ops/locations?warehouse_id=${w.east}&name=A-02-0`)).body.data.map((l: any) => l.name)).toEqual([
      'A-02-01',
      'A-02-02',
      'A-02-03',
    ]);
    const list = await http('POST', '/v1/ops/locations/bulk', {
      warehouse_id: w.east,
      type: 'OVERSTOCK',
      locations: [
        { name: 'O-1', barcode: 'O1' },
        { name: 'O-2', pick_sequence: 900 },
      ],
    });
    expect(list.status).toBe(201);
    expect(list.body.data.map((l: any) => [l.name, l.type])).toEqual([
      ['O-1', 'OVERSTOCK'],
      ['O-2', 'OVERSTOCK'],
    ]);
    const byType = await http('GET', `/v1/ops/locations?warehouse_id=${w.east}&type=OVERSTOCK`);
    expect(byType.body.data.map((l: any) => l.name)).toEqual(['O-1', 'O-2']);
  });

  it('answers clear errors: bad ranges, unknown fields, unknown warehouse, other teams', async () => {
    const bad = async (body: unknown, status: number, match: RegExp) => {
      const r = await http('POST', '/v1/ops/locations/bulk', body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(JSON.stringify(r.body)).toMatch(match);
    };
    await bad({ warehouse_id: w.east, range: 'A-01..B-02-03' }, 400, /same parts/);
    await bad({ warehouse_id: w.east, range: 'A-05..A-01' }, 400, /comes after/);
    await bad({ warehouse_id: w.east, range: 'A-01' }, 400, /FIRST\.\.LAST/);
    await bad({ warehouse_id: w.east, range: 'A-0001..Z-9999' }, 400, /at most 10000/);
    await bad({ warehouse_id: w.east }, 400, /exactly one of range and locations/);
    await bad({ warehouse_id: w.east, range: 'X-1..X-2', colour: 'red' }, 400, /colour/);
    await bad({ warehouse_id: 'nope', range: 'X-1..X-2' }, 404, /Warehouse nope/);
    expect((await http('POST', '/v1/ops/locations', { warehouse_id: w.east, name: 'T-1', type: 'FRIDGE' })).status).toBe(400);
    const other = await otherFulfiller(w.t);
    expect((await http('POST', '/v1/ops/locations', { warehouse_id: other.warehouse, name: 'X' })).status).toBe(404);
    const mine = await http('POST', '/v1/ops/locations', { warehouse_id: w.east, name: 'MINE-1' });
    expect((await http('GET', `/v1/ops/locations/${mine.body.id}`, undefined, other.token)).status).toBe(404);
    expect((await http('GET', `/v1/ops/locations?warehouse_id=${w.east}`, undefined, other.token)).body.data).toEqual([]);
  });
});
