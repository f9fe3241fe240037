import { afterEach, describe, expect, it } from 'vitest';
import { runDueStorage, storageHooks } from '../../src/domain/billing/storage-runs.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { locationType, stockBins, storageMerchant, storageWarehouse } from '../helpers/storage-seed.js';
import { link, publish } from '../helpers/rate-cards.js';

// Daily storage (docs/billing.md "Storage"): the schedule takes each warehouse's day once, from
// the ledger as it stood at the end of that day in the warehouse's zone, and bills one DAILY
// STORAGE charge per merchant and location type; an operator's run of a day bills it once.
// SQLite, and PostgreSQL with FOS_TEST_DB=postgres.

let t: TestApp | undefined;
afterEach(async () => {
  storageHooks.afterCharges = undefined;
  await t?.close();
  t = undefined;
});

const card = (storage: unknown) => ({ id: 'rc_store', name: 'Storage card', version_id: 'v_1', semantic_version: '1.0.0', storage });
const JAN = new Date('2026-01-01T00:00:00Z');
const at = (iso: string) => new Date(iso);
const storageCharges = async (db: TestApp['db']) =>
  db.prisma.charge.findMany({ where: { category: 'STORAGE' }, orderBy: [{ created_at: 'asc' }, { location_type_name: 'asc' }] });

describe('daily storage on a schedule', () => {
  it('a month with the clock advanced: one charge per day per merchant and location type, amounts from the card and the ledger', async () => {
    t = await testApp();
    const w = await storageWarehouse(t.db, t.teamId);
    const pallet = await locationType(t.db, t.teamId, 'Pallet');
    const shelf = await locationType(t.db, t.teamId, 'Shelf');
    const a = await storageMerchant(
      t.db,
      t.teamId,
      card({ by_location_type: { [pallet.id]: { DAILY: 0.5 } }, rate_per_unit: { DAILY: 0.01 } }),
    );
    const b = await storageMerchant(t.db, t.teamId, card({ rate_per_unit: { DAILY: 0.02 } }));
    await stockBins(t.db, w, a.teamId, { count: 3, units: 10, typeId: pallet.id, at: JAN });
    await stockBins(t.db, w, a.teamId, { count: 2, units: 25, at: JAN });
    await stockBins(t.db, w, b.teamId, { count: 1, units: 40, typeId: shelf.id, at: JAN });
    // Received mid-month: counted from the end of March 15 on.
    await stockBins(t.db, w, a.teamId, { count: 1, units: 20, at: at('2026-03-15T12:00:00Z') });

    for (let d = 2; d <= 32; d++) {
      const now = d <= 31 ? `2026-03-${String(d).padStart(2, '0')}T00:00:30Z` : '2026-04-01T00:00:30Z';
      const taken = await runDueStorage(t.db, at(now));
      expect(taken).toHaveLength(1);
    }
    expect(await runDueStorage(t.db, at('2026-04-01T09:00:00Z'))).toEqual([]);

    const charges = await storageCharges(t.db);
    expect(charges).toHaveLength(31 * 3);
    const byKey = (merchant: string, type: string | null) =>
      charges.filter((c) => c.merchant_team_id === merchant && c.location_type_id === type).map((c) => c.calculated_amount);
    expect(byKey(a.teamId, pallet.id)).toEqual(Array(31).fill(1.5)); // 3 locations x 0.50
    expect(byKey(a.teamId, null)).toEqual([...Array(14).fill(0.5), ...Array(17).fill(0.7)]); // 50 then 70 units x 0.01
    expect(byKey(b.teamId, shelf.id)).toEqual(Array(31).fill(0.8)); // 40 units x 0.02
    const total = charges.reduce((s, c) => s + c.calculated_amount, 0);
    expect(Math.round(total * 100) / 100).toBe(90.2);

    const first = charges.find((c) => c.merchant_team_id === a.teamId && c.location_type_id === pallet.id)!;
    expect(first).toMatchObject({
      name: `Storage 2026-03-01 · ${pallet.name}`,
      quantity: 3,
      rate_period: 'DAILY',
      warehouse_id: w.id,
      warehouse_name: w.name,
      location_type_name: pallet.name,
      fulfillment_delegation_id: a.delegationId,
      created_at: at('2026-03-02T00:00:30Z'),
    });
    expect(first.pricing_config).toMatchObject({
      category: 'STORAGE',
      origination: 'SCHEDULE',
      storage: { date: '2026-03-01', locations: 3, units: 30 },
    });
    expect(first.pricing_trace).toMatchObject({
      rate_card_id: 'rc_store',
      version_id: 'v_1',
      semantic_version: '1.0.0',
      decision: 'pricing_matched',
      pricing_step_id: `storage.by_location_type.${pallet.id}.DAILY`,
      calculated_amount: 1.5,
    });

    // Through the API: the charges list and the snapshots (keyset paging, filters).
    const listed = await t.call('GET', '/v1/ops/charges', { query: { category: 'STORAGE', merchant_team_id: b.teamId, limit: 100 } });
    expect(listed.json().data).toHaveLength(31);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await t.call('GET', '/v1/ops/billing/storage-snapshots', {
        query: {
          merchant_team_id: a.teamId,
          date_from: '2026-03-10',
          date_to: '2026-03-19',
          order: 'asc',
          limit: 7,
          ...(cursor ? { cursor } : {}),
        },
      });
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().data.map((s: { date: string }) => s.date));
      cursor = res.json().meta.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(20);
    expect(seen[0]).toBe('2026-03-10');
    expect(seen[19]).toBe('2026-03-19');
    const untyped = await t.call('GET', '/v1/ops/billing/storage-snapshots', {
      query: { merchant_team_id: a.teamId, location_type_id: 'none', date_from: '2026-03-15', date_to: '2026-03-15' },
    });
    expect(untyped.json().data).toEqual([
      expect.objectContaining({ location_type_id: null, locations: 3, units: 70, date: '2026-03-15', warehouse_id: w.id }),
    ]);
    // Each snapshot names its warehouse, merchant and location type.
    const named = await t.call('GET', '/v1/ops/billing/storage-snapshots', {
      query: { merchant_team_id: a.teamId, date_from: '2026-03-15', date_to: '2026-03-15', location_type_id: pallet.id },
    });
    const teamName = (await t.db.prisma.team.findUniqueOrThrow({ where: { id: a.teamId } })).name;
    expect(named.json().data).toEqual([
      expect.objectContaining({ warehouse_name: w.name, merchant_team_name: teamName, location_type_name: pallet.name }),
    ]);
    expect(untyped.json().data[0]).toMatchObject({ location_type_name: null, merchant_team_name: teamName });
  });

  it('a restart after missing 3 days back-fills them, each from the ledger as it stood then', async () => {
    t = await testApp();
    const w = await storageWarehouse(t.db, t.teamId);
    const m = await storageMerchant(t.db, t.teamId, card({ rate_per_unit: { DAILY: 0.1 } }));
    await stockBins(t.db, w, m.teamId, { count: 1, units: 10, at: JAN });
    await stockBins(t.db, w, m.teamId, { count: 1, units: 5, at: at('2026-05-03T10:00:00Z') });
    expect((await runDueStorage(t.db, at('2026-05-02T00:01:00Z'))).map((r) => r.date)).toEqual(['2026-05-01']);
    // Down from May 2 to May 5, 10:00: May 2, 3 and 4 are taken at start, oldest first.
    const backfilled = await runDueStorage(t.db, at('2026-05-05T10:00:00Z'));
    expect(backfilled.map((r) => [r.date, r.amount])).toEqual([
      ['2026-05-02', 1],
      ['2026-05-03', 1.5],
      ['2026-05-04', 1.5],
    ]);
    expect(await runDueStorage(t.db, at('2026-05-05T10:00:00Z'))).toEqual([]);
    expect((await storageCharges(t.db)).map((c) => c.quantity)).toEqual([10, 10, 15, 15]);
  });

  it('a clock set back before a warehouse was made (FOS_NOW in the past) takes its days from there on', async () => {
    t = await testApp();
    // Made by the real clock, long after the days the server's clock is simulating.
    const w = await storageWarehouse(t.db, t.teamId, 'UTC', new Date('2026-10-01T00:00:00Z'));
    const m = await storageMerchant(t.db, t.teamId, card({ rate_per_unit: { DAILY: 0.1 } }));
    await stockBins(t.db, w, m.teamId, { count: 1, units: 10, at: JAN });
    expect((await runDueStorage(t.db, at('2026-03-02T00:05:00Z'))).map((r) => [r.date, r.amount])).toEqual([['2026-03-01', 1]]);
    expect((await runDueStorage(t.db, at('2026-03-04T00:05:00Z'))).map((r) => r.date)).toEqual(['2026-03-02', '2026-03-03']);
  });

  it('a crash inside a day leaves nothing behind and other warehouses go on; the next run takes it once', async () => {
    t = await testApp();
    const w = await storageWarehouse(t.db, t.teamId);
    const w2 = await storageWarehouse(t.db, t.teamId);
    const m = await storageMerchant(t.db, t.teamId, card({ rate_per_unit: { DAILY: 0.1 } }));
    await stockBins(t.db, w, m.teamId, { count: 2, units: 5, at: JAN });
    await stockBins(t.db, w2, m.teamId, { count: 1, units: 20, at: JAN });
    let calls = 0;
    storageHooks.afterCharges = () => {
      if (calls++ === 0) throw new Error('simulated crash mid-snapshot'); // the first warehouse's day (ids in order)
    };
    const failed: string[] = [];
    const now = at('2026-07-02T01:00:00Z');
    const first = await runDueStorage(t.db, now, (id, err) => failed.push(`${id}: ${(err as Error).message}`));
    expect(failed).toEqual([`${w.id}: simulated crash mid-snapshot`]);
    expect(first.map((r) => [r.warehouse_id, r.amount])).toEqual([[w2.id, 2]]);
    const left = { warehouse_id: w.id };
    expect(await t.db.prisma.storageRun.count({ where: left })).toBe(0);
    expect(await t.db.prisma.storageSnapshot.count({ where: left })).toBe(0);
    expect(await t.db.prisma.charge.count({ where: left })).toBe(0);
    expect(await t.db.prisma.outboxEvent.count({ where: { kind: 'charge.created' } })).toBe(2); // w2's, to both teams
    storageHooks.afterCharges = undefined;
    expect((await runDueStorage(t.db, now)).map((r) => [r.warehouse_id, r.date, r.amount])).toEqual([[w.id, '2026-07-01', 1]]);
    expect(await t.db.prisma.charge.count()).toBe(2);
    expect(await t.db.prisma.outboxEvent.count({ where: { kind: 'charge.created' } })).toBe(4);
    // Without a failure callback, a failure is thrown once the other warehouses are done.
    storageHooks.afterCharges = () => {
      throw new Error('simulated crash again');
    };
    await expect(runDueStorage(t.db, at('2026-07-03T01:00:00Z'))).rejects.toThrow('simulated crash again');
  });

  it('a warehouse at UTC-8 takes its day at its own midnight, not UTC midnight', async () => {
    t = await testApp();
    const w = await storageWarehouse(t.db, t.teamId, 'Etc/GMT+8'); // POSIX sign: UTC-8
    const m = await storageMerchant(t.db, t.teamId, card({ rate_per_unit: { DAILY: 1 } }));
    await stockBins(t.db, w, m.teamId, { count: 1, units: 2, at: JAN });
    // A unit received at 07:30 UTC on Feb 11 is still Feb 10 there: Feb 10 counts it.
    await stockBins(t.db, w, m.teamId, { count: 1, units: 1, at: at('2026-02-11T07:30:00Z') });
    expect((await runDueStorage(t.db, at('2026-02-10T08:00:05Z'))).map((r) => r.date)).toEqual(['2026-02-09']);
    expect(await runDueStorage(t.db, at('2026-02-11T07:59:59Z'))).toEqual([]); // 23:59:59 on Feb 10 there
    const taken = await runDueStorage(t.db, at('2026-02-11T08:00:01Z'));
    expect(taken.map((r) => [r.date, r.time_zone, r.run.cutoff_at.toISOString()])).toEqual([
      ['2026-02-10', 'Etc/GMT+8', '2026-02-11T08:00:00.000Z'],
    ]);
    expect((await storageCharges(t.db)).map((c) => c.quantity)).toEqual([2, 3]);
  });
});

describe('POST /v1/ops/billing/storage-runs', () => {
  it('bills a day once: the second run answers what exists; an unended day is a 409', async () => {
    t = await testApp({ clock: () => Date.parse('2026-06-02T12:00:00Z') });
    const w = await storageWarehouse(t.db, t.teamId, 'America/Los_Angeles');
    const bare = await storageWarehouse(t.db, t.teamId);
    const type = await locationType(t.db, t.teamId, 'Bin');
    const m = await storageMerchant(t.db, t.teamId, card({ by_location_type: { [type.id]: { DAILY: 0.25 } } }));
    const unpriced = await storageMerchant(t.db, t.teamId); // no card: snapshot kept, nothing billed
    await stockBins(t.db, w, m.teamId, { count: 4, units: 3, typeId: type.id, at: JAN });
    await stockBins(t.db, w, unpriced.teamId, { count: 1, units: 9, at: JAN });

    const first = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date: '2026-06-01', warehouse_id: w.id } });
    expect(first.statusCode).toBe(201);
    expect(first.json().runs).toEqual([
      expect.objectContaining({ warehouse_id: w.id, created: true, source: 'API', snapshot_count: 2, charge_count: 1, amount: 1 }),
    ]);
    const again = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date: '2026-06-01', warehouse_id: w.id } });
    expect(again.statusCode).toBe(200);
    expect(again.json().runs).toEqual([
      expect.objectContaining({ created: false, run_id: first.json().runs[0].run_id, snapshot_count: 2, charge_count: 1, amount: 1 }),
    ]);
    // All warehouses: the one taken already is reported, the bare one taken (nothing to bill).
    const all = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date: '2026-06-01' } });
    expect(all.statusCode).toBe(201);
    const runs = all.json().runs as Array<{ warehouse_id: string; created: boolean; snapshot_count: number }>;
    expect(runs.find((r) => r.warehouse_id === w.id)).toMatchObject({ created: false });
    expect(runs.find((r) => r.warehouse_id === bare.id)).toMatchObject({ created: true, snapshot_count: 0 });
    expect(await t.db.prisma.charge.count({ where: { category: 'STORAGE' } })).toBe(1);
    const snaps = await t.call('GET', '/v1/ops/billing/storage-snapshots', { query: { billed: false } });
    expect(snaps.json().data).toEqual([expect.objectContaining({ merchant_team_id: unpriced.teamId, units: 9, charge_id: null })]);

    // June 2 has not ended anywhere at 12:00 UTC; in Los Angeles June 1 ended at 07:00 UTC.
    const early = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date: '2026-06-02' } });
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toContain('has not ended');
    const bad = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date: '2026-02-30' } });
    expect(bad.statusCode).toBe(400);
    const extra = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date: '2026-06-01', force: true } });
    expect(extra.statusCode).toBe(400);
    const other = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date: '2026-06-01', warehouse_id: m.teamId } });
    expect(other.statusCode).toBe(404);
  });

  it('warehouses take an IANA time zone (PATCH), validated', async () => {
    t = await testApp();
    const w = await storageWarehouse(t.db, t.teamId);
    expect((await t.call('GET', `/v1/ops/warehouses/${w.id}`)).json().time_zone).toBe('UTC');
    const ok = await t.call('PATCH', `/v1/ops/warehouses/${w.id}`, { body: { time_zone: 'america/los_angeles' } }); // stored canonical
    expect(ok.statusCode).toBe(200);
    expect(ok.json().time_zone).toBe('America/Los_Angeles');
    const bad = await t.call('PATCH', `/v1/ops/warehouses/${w.id}`, { body: { time_zone: 'Mars/Olympus' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ path: 'body.time_zone' })]);
    const empty = await t.call('PATCH', `/v1/ops/warehouses/${w.id}`, { body: {} });
    expect(empty.statusCode).toBe(400);
    expect((await t.db.prisma.warehouse.findUniqueOrThrow({ where: { id: w.id } })).time_zone).toBe('America/Los_Angeles');
  });
});

describe('daily storage by a versioned rate card', () => {
  it('prices each day by the version in force at its end, billed once per snapshot', async () => {
    t = await testApp({ clock: () => Date.parse('2026-06-03T12:00:00Z') });
    const token = (await t.key({ tier: 4 })).token;
    const w = await storageWarehouse(t.db, t.teamId);
    const type = await locationType(t.db, t.teamId, 'Pallet');
    const m = await storageMerchant(t.db, t.teamId); // no JSON card: the versioned one prices it
    await stockBins(t.db, w, m.teamId, { count: 3, units: 5, typeId: type.id, at: JAN });
    const version = (semantic_version: string, effective_at: string, amount: number) => ({
      rate_card_name: 'Storage versions',
      semantic_version,
      effective_at,
      currency: 'USD',
      fees: [{ id: 'pallet', event: 'STORAGE', conditions: { location_types: [type.id] }, price: { type: 'PER_LOCATION', amount } }],
    });
    const first = await publish(t, token, version('1.0.0', '2026-01-01T00:00:00Z', 0.5));
    await publish(t, token, version('1.1.0', '2026-06-02T12:00:00Z', 0.75)); // in force from June 2, noon
    await link(t, token, m.delegationId, first.rate_card_id);

    for (const date of ['2026-06-01', '2026-06-02', '2026-06-02']) {
      const res = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date, warehouse_id: w.id } });
      expect([200, 201], res.body).toContain(res.statusCode);
    }
    const charges = await storageCharges(t.db);
    // June 1 ends at June 2 00:00 UTC, before 1.1.0: priced by 1.0.0; June 2 ends after it.
    const priced = charges.map((c) => [
      c.quantity,
      c.calculated_amount,
      (c.pricing_trace as { semantic_version?: string }).semantic_version,
    ]);
    expect(priced).toEqual([
      [3, 1.5, '1.0.0'],
      [3, 2.25, '1.1.0'],
    ]);
    expect(charges.every((c) => c.billing_key?.startsWith('STORAGE:') && c.rate_period === 'DAILY')).toBe(true);
    const snaps = await t.db.prisma.storageSnapshot.findMany({ where: { warehouse_id: w.id } });
    expect(snaps.map((s) => s.charge_id).sort()).toEqual(charges.map((c) => c.id).sort());
  });
  it('a version effective from the next midnight prices that day on, not the day before; a re-rated draft keeps each day as billed', async () => {
    t = await testApp({ clock: () => Date.parse('2026-06-03T12:00:00Z') });
    const token = (await t.key({ tier: 4 })).token;
    const w = await storageWarehouse(t.db, t.teamId);
    const type = await locationType(t.db, t.teamId, 'Pallet');
    const m = await storageMerchant(t.db, t.teamId);
    await stockBins(t.db, w, m.teamId, { count: 2, units: 5, typeId: type.id, at: JAN });
    const version = (semantic_version: string, effective_at: string, amount: number) => ({
      rate_card_name: 'Midnight',
      semantic_version,
      effective_at,
      currency: 'USD',
      fees: [{ id: 'pallet', event: 'STORAGE', price: { type: 'PER_LOCATION', amount } }],
    });
    const first = await publish(t, token, version('1.0.0', '2026-01-01T00:00:00Z', 1));
    await publish(t, token, version('2.0.0', '2026-06-02T00:00:00Z', 3)); // a new price from June 2
    await link(t, token, m.delegationId, first.rate_card_id);
    for (const date of ['2026-06-01', '2026-06-02']) {
      const res = await t.call('POST', '/v1/ops/billing/storage-runs', { body: { date, warehouse_id: w.id } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const billed = async () =>
      (await storageCharges(t!.db)).map((c) => [
        (c.pricing_config as { storage?: { date?: string } }).storage?.date,
        c.calculated_amount,
        (c.pricing_trace as { semantic_version?: string }).semantic_version,
      ]);
    const expected = [
      ['2026-06-01', 2, '1.0.0'],
      ['2026-06-02', 6, '2.0.0'],
    ];
    expect((await billed()).sort()).toEqual(expected);
    // Re-rating prices each day at its own last instant, as it was billed, not at the run's time,
    // and keeps the day in pricing_config (a version republished changes what re-rating sees).
    await publish(t, token, version('2.0.1', '2026-06-02T00:00:00Z', 4));
    const inv = await t.call('POST', '/v1/ops/invoices', {
      body: { merchant_team_id: m.teamId, period_start: '2026-06-01', period_end: '2026-06-30' },
    });
    expect(inv.statusCode, inv.body).toBe(201);
    const rerated = await t.call('POST', `/v1/ops/invoices/${inv.json().id}/rerate`);
    expect(rerated.statusCode, rerated.body).toBe(200);
    expect((await billed()).sort()).toEqual([
      ['2026-06-01', 2, '1.0.0'],
      ['2026-06-02', 8, '2.0.1'],
    ]);
    expect(rerated.json().subtotal).toBe(10);
  });
});
