import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './orders.fixtures.js';
import { ledgerBalanced } from './inventory.fixtures.js';

// Issue 23 item 3: a write sent with an Idempotency-Key is applied once per key. The answer is
// stored in the write's own transaction; a repeat gets it back (idempotent-replayed: true)
// without touching a level, also when the repeats race; another body under the key is a 409.

let w: World;
beforeAll(async () => {
  w = await world();
});
afterAll(() => w?.t.close());

const adjust = (body: Record<string, unknown>, key?: string) =>
  w.t.call('POST', '/v1/ops/inventory/adjustments', {
    token: w.token,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

describe('Idempotency-Key on POST /v1/ops/inventory/adjustments', () => {
  it('a repeat answers the first answer and applies nothing again', async () => {
    const p = await w.product('IDEM-1', { [w.east]: 0 });
    const body = { warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'IDEM-1', delta: 3 }] };
    const first = await adjust(body, 'chunk-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await adjust(body, 'chunk-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const [level] = await ledgerBalanced(w.t.db, [p]);
    expect(level.on_hand).toBe(3);
    // without a key, each request applies
    expect((await adjust(body)).statusCode).toBe(201);
    expect((await ledgerBalanced(w.t.db, [p]))[0].on_hand).toBe(6);
  });

  it('racing repeats of one key apply it once', async () => {
    const p = await w.product('IDEM-2', { [w.east]: 0 });
    const body = { warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'IDEM-2', delta: 2 }] };
    const results = await Promise.all(Array.from({ length: 6 }, () => adjust(body, 'race-key')));
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect((await ledgerBalanced(w.t.db, [p]))[0].on_hand).toBe(2);
  });

  it('the same key with another body is a 409; a refused request leaves the key unused; a bad key is a 400', async () => {
    await w.product('IDEM-3', { [w.east]: 1 });
    const body = { warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'IDEM-3', delta: 1 }] };
    expect((await adjust(body, 'k3')).statusCode).toBe(201);
    const other = await adjust({ ...body, lines: [{ sku: 'IDEM-3', delta: 2 }] }, 'k3');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ type: 'urn:fos:error:conflict' });
    // a refusal (LOST more than there is) rolls the claim back with everything else
    const lost = { warehouse_id: w.east, reason: 'LOST', lines: [{ sku: 'IDEM-3', delta: -50 }] };
    expect((await adjust(lost, 'k4')).statusCode).toBe(409);
    expect(await w.t.db.prisma.idempotencyRecord.count({ where: { key: 'k4' } })).toBe(0);
    const bad = await adjust(body, 'x'.repeat(201));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('headers.idempotency-key');
  });

  it('a key belongs to its team: another key of the same team gets the stored answer', async () => {
    const other = await w.t.key({ tier: 4 });
    const body = { warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'IDEM-1', delta: 1 }] };
    const a = await adjust(body, 'shared');
    const b = await w.t.call('POST', '/v1/ops/inventory/adjustments', {
      token: other.token,
      body,
      headers: { 'idempotency-key': 'shared' },
    });
    expect(a.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    const count = await w.t.db.prisma.idempotencyRecord.count({ where: { key: 'shared' } });
    expect(count).toBe(1);
  });
});
