import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuePeriods } from '../../src/domain/invoices/generate.js';
import { testApp, type TestApp } from '../helpers/app.js';

// kill -9 during invoice generation: a separate process runs the period close and SIGKILLs itself
// after claiming the charges, before its transaction commits (test/helpers/invoice-kill-child.mjs,
// on dist/: npm run build first). Nothing of it survives, and the rerun produces the one invoice
// with every charge on it once. SQLite and PostgreSQL (FOS_TEST_DB=postgres).

let t: TestApp;
const CLOSED = '2026-02-01T00:00:01Z';

beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

function child(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const p = spawn(process.execPath, [path.join(import.meta.dirname, '../helpers/invoice-kill-child.mjs'), t.db.url, CLOSED], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  p.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => p.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

describe('kill -9 mid-generation', () => {
  it('leaves no invoice and no claimed charge; the rerun bills every charge once', async () => {
    const m = await t.merchant();
    await t.db.prisma.charge.createMany({
      data: Array.from({ length: 400 }, (_, i) => ({
        name: `c${i}`,
        category: i % 2 ? 'SHIPPING' : 'STORAGE',
        quantity: 1,
        calculated_amount: 2,
        original_amount: 2,
        merchant_team_id: m.teamId,
        fulfiller_team_id: t.teamId,
        created_at: new Date(Date.UTC(2026, 0, 1 + (i % 31), i % 24)),
      })),
    });
    const killed = await child();
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(await t.db.prisma.invoice.count()).toBe(0);
    expect(await t.db.prisma.charge.count({ where: { invoice_id: { not: null } } })).toBe(0);
    const terms = await t.db.prisma.invoiceTerms.findUniqueOrThrow({ where: { fulfillment_delegation_id: m.delegationId } });
    expect(terms.closed_through).toBe('2026-01-01');

    const made = await closeDuePeriods(t.db, new Date(CLOSED));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ merchant_team_id: m.teamId, period_start: '2026-01-01', charge_count: 400, total: 800 });
    expect(await t.db.prisma.charge.count({ where: { invoice_id: made[0].id } })).toBe(400);
    expect(await closeDuePeriods(t.db, new Date(CLOSED))).toEqual([]);
  });
});
