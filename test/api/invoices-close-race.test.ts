import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import type { Db } from '../../src/db/types.js';
import { closeDuePeriods, generationHooks } from '../../src/domain/invoices/generate.js';
import { testApp, type TestApp } from '../helpers/app.js';

// The period close run by several replicas at once (two connections to one database, each
// running closeDuePeriods concurrently) gives one invoice per merchant and period; a crash in the
// middle of a generation (after its charges were claimed) leaves nothing behind, and the rerun
// bills every charge once. SQLite and PostgreSQL (FOS_TEST_DB=postgres).

let t: TestApp;
let replica: Db;
const JAN_CLOSED = new Date('2026-02-01T00:00:01Z');

async function seed(merchantTeamId: string, n: number) {
  const base = Date.parse('2026-01-01T00:00:00Z');
  const span = Date.parse('2026-02-01T00:00:00Z') - base;
  await t.db.prisma.charge.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      name: `pick ${i}`,
      category: i % 3 ? 'SHIPPING' : 'STORAGE',
      quantity: 1,
      calculated_amount: 1.25,
      original_amount: 1.25,
      merchant_team_id: merchantTeamId,
      fulfiller_team_id: t.teamId,
      created_at: new Date(base + Math.floor((span * i) / n)),
    })),
  });
}

beforeAll(async () => {
  t = await testApp();
  replica = await createDb(t.db.url);
});
afterAll(async () => {
  generationHooks.afterClaim = undefined;
  await replica?.close();
  await t?.close();
});

describe('closing a period', () => {
  it('twice at once on two replicas: one invoice per merchant, every charge on exactly one', async () => {
    const merchants = await Promise.all([t.merchant(), t.merchant(), t.merchant()]);
    for (const m of merchants) await seed(m.teamId, 500);
    const runs = await Promise.all([
      closeDuePeriods(t.db, JAN_CLOSED),
      closeDuePeriods(replica, JAN_CLOSED),
      closeDuePeriods(replica, JAN_CLOSED),
    ]);
    expect(runs.flat()).toHaveLength(3);
    const invoices = await t.db.prisma.invoice.findMany();
    expect(invoices.map((i) => i.merchant_team_id).sort()).toEqual(merchants.map((m) => m.teamId).sort());
    for (const inv of invoices) {
      expect(inv).toMatchObject({
        status: 'DRAFT',
        period_start: '2026-01-01',
        period_end: '2026-01-31',
        charge_count: 500,
        subtotal: 625,
      });
      expect(await t.db.prisma.charge.count({ where: { invoice_id: inv.id, merchant_team_id: inv.merchant_team_id } })).toBe(500);
    }
    expect(await t.db.prisma.charge.count({ where: { invoice_id: null } })).toBe(0);
    const terms = await t.db.prisma.invoiceTerms.findMany();
    expect(terms.map((x) => x.closed_through)).toEqual(['2026-02-01', '2026-02-01', '2026-02-01']);
  });

  it('a crash after the claim rolls the whole generation back; the rerun bills each charge once', async () => {
    const m = await t.merchant();
    await seed(m.teamId, 300);
    generationHooks.afterClaim = () => {
      throw new Error('simulated crash mid-generation');
    };
    await expect(closeDuePeriods(replica, JAN_CLOSED)).rejects.toThrow('simulated crash');
    expect(await t.db.prisma.invoice.count({ where: { merchant_team_id: m.teamId } })).toBe(0);
    expect(await t.db.prisma.charge.count({ where: { merchant_team_id: m.teamId, invoice_id: null } })).toBe(300);
    const terms = await t.db.prisma.invoiceTerms.findUniqueOrThrow({ where: { fulfillment_delegation_id: m.delegationId } });
    expect(terms.closed_through).toBe('2026-01-01'); // the close did not move past January
    generationHooks.afterClaim = undefined;
    const [a, b] = await Promise.all([closeDuePeriods(t.db, JAN_CLOSED), closeDuePeriods(replica, JAN_CLOSED)]);
    expect([...a, ...b].map((i) => i.merchant_team_id)).toEqual([m.teamId]);
    const inv = await t.db.prisma.invoice.findFirstOrThrow({ where: { merchant_team_id: m.teamId } });
    expect(inv.charge_count).toBe(300);
    expect(await t.db.prisma.charge.count({ where: { merchant_team_id: m.teamId, invoice_id: inv.id } })).toBe(300);
  });
});
