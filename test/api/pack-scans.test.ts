import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture, type Fixture } from '../helpers/fixtures.js';
import { packBox } from '../../src/domain/fulfillment/pack.js';

// Packing that checks (issue 28 item 5, docs/floor.md): scans into the open box of a fulfillment
// order, every refusal, undo, idempotent retries, racing packs over real HTTP, and the package.

let t: TestApp;
let token: string;
let base: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  t.call(method, url, { token, headers, ...(body !== undefined ? { body } : {}) });
const scans = (f: Fixture) => `/v1/ops/fulfillment-orders/${f.fo.id}/pack-scans`;
const scan = (f: Fixture, body: Record<string, unknown>, headers?: Record<string, string>) => call('POST', scans(f), body, headers);
const pack = (f: Fixture, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/pack`, body, headers);

describe('scanning a box and packing it', () => {
  it('checks each scan, then packs exactly the scanned lines', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }, { quantity: 1 }], status: 'ACCEPTED' });
    await t.db.prisma.product.update({ where: { id: f.products[1].id }, data: { barcode: '0012345678905' } });

    const first = await scan(f, { barcode: f.foLines[0].sku!.toLowerCase() });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      scan: { product_id: f.products[0].id, sku: f.foLines[0].sku, quantity: 1, lot_code: null },
      scanned: [{ sku: f.foLines[0].sku, product_id: f.products[0].id, lot_code: null, quantity: 1 }],
      remaining: [
        { sku: f.foLines[0].sku, quantity: 1 },
        { sku: f.foLines[1].sku, quantity: 1 },
      ],
      complete: false,
      order_number: f.order.order_number,
    });
    const started = (await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } })).packing_started_at;
    expect(started).toBeInstanceOf(Date);

    expect((await scan(f, { barcode: f.foLines[0].sku })).statusCode).toBe(200);
    const last = await scan(f, { barcode: '0012345678905' });
    expect(last.json()).toMatchObject({ remaining: [], complete: true });
    const box = await call('GET', scans(f));
    expect(box.statusCode).toBe(200);
    expect(box.json()).toMatchObject({ complete: true, scanned: last.json().scanned });
    expect(box.json().scans).toHaveLength(3);

    const res = await pack(f, { weight: 800, weight_unit: 'G', name: 'Box 1' });
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({ fulfillment_order_id: f.fo.id, weight: 800, name: 'Box 1', total_item_quantity: 3, status: 'PENDING' });
    expect(p.package_line_items.map((l: any) => [l.core_fulfillment_order_line_item_id, l.quantity]).sort()).toEqual(
      [
        [f.foLines[0].id, 2],
        [f.foLines[1].id, 1],
      ].sort(),
    );
    const fo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(fo.packing_started_at).toEqual(started);
    expect(fo.packing_completed_at).toBeInstanceOf(Date);
    expect(await t.db.prisma.packScan.count({ where: { fulfillment_order_id: f.fo.id, package_id: p.id } })).toBe(3);

    // The box is empty now, and the package holds everything: nothing more can be scanned.
    const after = (await call('GET', scans(f))).json();
    expect(after).toMatchObject({ scans: [], scanned: [], remaining: [], complete: true });
    expect(after.lines.map((l: any) => l.needed)).toEqual([0, 0]);
    expect((await scan(f, { barcode: f.foLines[0].sku })).statusCode).toBe(409);
    expect((await pack(f)).statusCode).toBe(409);
  });

  it('refuses a wrong item, an over-scan, an unknown barcode and an empty box, saying what is expected', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const other = await fulfillmentFixture(t, { lines: [{ quantity: 1 }] });

    const empty = await pack(f);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().detail).toContain('Nothing was scanned');

    const wrong = await scan(f, { barcode: other.foLines[0].sku });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().detail).toContain('is not in this order');
    expect(wrong.json().expected).toEqual([{ sku: f.foLines[0].sku, product_id: f.products[0].id, name: f.foLines[0].name, quantity: 2 }]);

    const unknown = await scan(f, { barcode: 'NO-SUCH-CODE' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ type: 'urn:fos:error:unprocessable', expected: [{ sku: f.foLines[0].sku, quantity: 2 }] });

    expect((await scan(f, { barcode: f.foLines[0].sku, quantity: 2 })).statusCode).toBe(200);
    const over = await scan(f, { barcode: f.foLines[0].sku });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toContain('0 more can go in this box (2 already scanned)');
    expect(over.json().expected).toEqual([]);

    const bad = await scan(f, { barcode: f.foLines[0].sku, quantity: 0, extra: 1 });
    expect(bad.statusCode).toBe(400);
    expect(await t.db.prisma.packScan.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(1);
  });

  it('counts units already in open packages made by the plain API, which keeps working', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }], status: 'ACCEPTED' });
    const plain = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      package_line_items: [{ sku: f.foLines[0].sku, quantity: 2 }],
    });
    expect(plain.statusCode).toBe(201);
    const box = (await call('GET', scans(f))).json();
    expect(box.lines[0]).toMatchObject({ needed: 1, scanned: 0, remaining: 1 });
    expect((await scan(f, { barcode: f.foLines[0].sku, quantity: 2 })).statusCode).toBe(409);
    expect((await scan(f, { barcode: f.foLines[0].sku })).statusCode).toBe(200);
    expect((await pack(f)).json()).toMatchObject({ total_item_quantity: 1 });
  });

  it('undoes a scan; a packed scan cannot be undone', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const a = (await scan(f, { barcode: f.foLines[0].sku })).json().scan;
    const b = (await scan(f, { barcode: f.foLines[0].sku })).json().scan;
    const undo = await call('DELETE', `${scans(f)}/${b.id}`);
    expect(undo.statusCode).toBe(204);
    expect((await call('GET', scans(f))).json()).toMatchObject({ scans: [{ id: a.id }], remaining: [{ quantity: 1 }] });
    expect((await call('DELETE', `${scans(f)}/${b.id}`)).statusCode).toBe(404);
    expect((await pack(f)).statusCode).toBe(201);
    const packed = await call('DELETE', `${scans(f)}/${a.id}`);
    expect(packed.statusCode).toBe(409);
    expect(packed.json().detail).toContain('already in package');
  });
});

describe('holds, locks and totes', () => {
  it('refuses scans and packs while the order is on hold, naming the hold', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    expect((await scan(f, { barcode: f.foLines[0].sku })).statusCode).toBe(200);
    const hold = await call('POST', `/v1/ops/orders/${f.order.id}/holds`, {
      reason: 'CUSTOMER_REQUEST',
      reason_notes: 'check the flat number',
    });
    expect(hold.statusCode).toBe(201);
    for (const res of [await scan(f, { barcode: f.foLines[0].sku }), await pack(f)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().type).toBe('urn:fos:error:on-hold');
      expect(res.json().detail).toContain(hold.json().id);
    }
    expect(await t.db.prisma.package.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(0);
  });

  it('refuses a lock held by another owner, and lets its owner pack', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const lock = await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'station-2', timeout_minutes: 10 });
    expect(lock.statusCode).toBe(200);
    const refused = await scan(f, { barcode: f.foLines[0].sku, lock_owner: 'station-1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ type: 'urn:fos:error:lock-held', lock_owner: 'station-2' });
    expect((await scan(f, { barcode: f.foLines[0].sku })).statusCode).toBe(409);
    const mine = (await scan(f, { barcode: f.foLines[0].sku, lock_owner: 'station-2' })).json().scan;
    expect((await call('DELETE', `${scans(f)}/${mine.id}`)).json().type).toBe('urn:fos:error:lock-held');
    expect((await call('DELETE', `${scans(f)}/${mine.id}?lock_owner=station-2`)).statusCode).toBe(204);
    expect((await scan(f, { barcode: f.foLines[0].sku, lock_owner: 'station-2' })).statusCode).toBe(200);
    expect((await pack(f)).json().type).toBe('urn:fos:error:lock-held');
    expect((await pack(f, { lock_owner: 'station-2' })).statusCode).toBe(201);
  });

  it("checks the tote is the order's", async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    const mine = await t.db.prisma.tote.create({ data: { team_id: t.teamId, name: `T-${f.fo.id.slice(-6)}` } });
    const theirs = await t.db.prisma.tote.create({ data: { team_id: t.teamId, name: `U-${f.fo.id.slice(-6)}` } });
    await t.db.prisma.fulfillmentOrder.update({ where: { id: f.fo.id }, data: { tote_id: mine.id } });
    expect((await scan(f, { barcode: f.foLines[0].sku, tote: theirs.name })).statusCode).toBe(409);
    expect((await scan(f, { barcode: f.foLines[0].sku, tote: 'NO-TOTE' })).statusCode).toBe(422);
    const ok = await scan(f, { barcode: f.foLines[0].sku, tote: mine.name });
    expect(ok.json()).toMatchObject({ scan: { tote_id: mine.id }, tote_name: mine.name });
  });
});

describe('lots', () => {
  it('checks the lot of a lot-tracked product against the stock the warehouse holds, and packs it', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }], status: 'ACCEPTED' });
    const productId = f.products[0].id;
    await t.db.prisma.product.update({ where: { id: productId }, data: { lot_tracked: true } });
    const bin = await t.db.prisma.location.create({
      data: { team_id: t.teamId, warehouse_id: f.warehouseId, name: `LOT-${productId.slice(-6)}` },
    });
    const dmg = await t.db.prisma.location.create({
      data: { team_id: t.teamId, warehouse_id: f.warehouseId, name: `DMG-${productId.slice(-6)}`, type: 'DAMAGED' },
    });
    const row = (location_id: string, lot_code: string, expiration_date: string, on_hand: number) =>
      t.db.prisma.locationStock.create({
        data: { product_id: productId, warehouse_id: f.warehouseId, location_id, lot_code, expiration_date, on_hand },
      });
    await row(bin.id, 'L-A', '2099-03-01', 2);
    await row(bin.id, 'L-OLD', '2020-01-01', 5);
    await row(dmg.id, 'L-DMG', '2099-01-01', 5);
    const sku = f.foLines[0].sku!;

    const missing = await scan(f, { barcode: sku, lot_code: 'L-DMG' });
    expect(missing.statusCode).toBe(409);
    expect(missing.json().detail).toContain('lots held: L-OLD (expires 2020-01-01), L-A (expires 2099-03-01)');
    expect((await scan(f, { barcode: sku, lot_code: 'L-OLD' })).json().detail).toContain('expired on 2020-01-01');
    expect((await scan(f, { barcode: sku, lot_code: 'L-A', quantity: 2 })).json().scan).toMatchObject({
      lot_code: 'L-A',
      expiration_date: '2099-03-01',
    });
    expect((await scan(f, { barcode: sku, lot_code: 'L-A' })).json().detail).toContain('the warehouse holds 2, 3 scanned');
    expect((await scan(f, { barcode: sku })).statusCode).toBe(200); // no lot: the fulfill picks by FEFO
    const p = (await pack(f)).json();
    const lines = p.package_line_items.map((l: any) => [l.lot_code, l.quantity, l.expiration_date?.slice(0, 10) ?? null]);
    expect(lines).toHaveLength(2);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['L-A', 2, '2099-03-01'],
        [null, 1, null],
      ]),
    );
  });
});

describe('retries and races', () => {
  it('applies a retried scan and a retried pack once (Idempotency-Key)', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }], status: 'ACCEPTED' });
    const body = { barcode: f.foLines[0].sku };
    const one = await scan(f, body, { 'idempotency-key': `scan-${f.fo.id}` });
    const again = await scan(f, body, { 'idempotency-key': `scan-${f.fo.id}` });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().scan.id).toBe(one.json().scan.id);
    expect((await call('GET', scans(f))).json().scans).toHaveLength(1);

    const first = await pack(f, { weight: 1 }, { 'idempotency-key': `pack-${f.fo.id}` });
    expect(first.statusCode).toBe(201);
    const retry = await pack(f, { weight: 1 }, { 'idempotency-key': `pack-${f.fo.id}` });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().id).toBe(first.json().id);
    expect(await t.db.prisma.package.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(1);
  });

  it('makes one package when packs race over HTTP', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    expect((await scan(f, { barcode: f.foLines[0].sku, quantity: 2 })).statusCode).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${base}/v1/ops/fulfillment-orders/${f.fo.id}/pack`, {
          method: 'POST',
          headers: { 'x-access-token': token, 'content-type': 'application/json' },
          body: '{}',
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const pkgs = await t.db.prisma.package.findMany({ where: { fulfillment_order_id: f.fo.id }, include: { line_items: true } });
    expect(pkgs).toHaveLength(1);
    expect(pkgs[0].line_items.map((l) => l.quantity)).toEqual([2]);
  });

  it('never over-fills a box when scans race over HTTP', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 3 }], status: 'ACCEPTED' });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${base}${scans(f)}`, {
          method: 'POST',
          headers: { 'x-access-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({ barcode: f.foLines[0].sku }),
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 409, 409, 409, 409, 409]);
    const box = (await call('GET', scans(f))).json();
    expect(box).toMatchObject({ complete: true, scanned: [{ quantity: 3 }] });
  });

  it('records the person who packs when a user acts', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    expect((await scan(f, { barcode: f.foLines[0].sku })).statusCode).toBe(200);
    const caller = { teamId: t.teamId, measurementSystem: 'METRIC' as const };
    const { created } = await packBox(t.db, caller, f.fo.id, {}, { userId: 'user-1', userName: 'Pat Packer' });
    expect(created).toBe(true);
    const fo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(fo).toMatchObject({ packed_by_user_id: 'user-1', packed_by_user_name: 'Pat Packer' });
  });
});
