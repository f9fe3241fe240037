// `fos invoices …` and `fos charges list` billing filters through the spawned bin/fos.js against
// a real server (clock fixed at 2026-02-10): generate a month, show it, finalize, the PDF and the
// QuickBooks export to files, send, pay; void refused on a paid invoice (exit 5, conflict).
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let dir: string;
let merchant: { teamId: string; token: string };

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer({ clock: () => Date.parse('2026-02-10T09:00:00Z') });
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  dir = await mkdtemp(path.join(tmpdir(), 'fos-invoices-'));
  merchant = await t.merchant();
  await t.db.prisma.charge.createMany({
    data: [
      ['SHIPPING', 12.5, '2026-01-03T10:00:00Z'],
      ['STORAGE', 30, '2026-01-31T00:00:00Z'],
      ['SHIPPING', 9, '2026-02-02T00:00:00Z'],
    ].map(([category, amount, at]) => ({
      name: String(category),
      category: String(category),
      quantity: 1,
      calculated_amount: Number(amount),
      original_amount: Number(amount),
      merchant_team_id: merchant.teamId,
      fulfiller_team_id: t.teamId,
      created_at: new Date(String(at)),
    })),
  });
}, 300_000);
afterAll(() => t?.close());

const fos = async (args: string[], as?: string) => {
  const r = await spawnFos(args, as ? { ...env, FOS_API_KEY: as } : env);
  return { ...r, json: () => JSON.parse(r.stdout) };
};

describe('fos invoices (spawned)', () => {
  it('generate a month, show, finalize, PDF and exports to files, pay; void of a paid invoice is a conflict', async () => {
    const gen = await fos(['invoices', 'generate', '--merchant', merchant.teamId, '--month', '2026-01', '--json']);
    expect(gen.code, gen.stderr).toBe(0);
    const inv = gen.json();
    expect(inv).toMatchObject({ status: 'DRAFT', period_start: '2026-01-01', period_end: '2026-01-31', total: 42.5, charge_count: 2 });

    const list = await fos(['invoices', 'list', '--status', 'DRAFT', '--merchant', merchant.teamId, '--json', 'id,total']);
    expect(list.json()).toEqual([{ id: inv.id, total: 42.5 }]);
    const shown = await fos(['invoices', 'show', inv.id, '--json', 'lines']);
    expect(shown.json().lines.map((l: any) => [l.category, l.amount])).toEqual([
      ['SHIPPING', 12.5],
      ['STORAGE', 30],
    ]);

    const fin = await fos(['invoices', 'finalize', inv.id, '--json', 'number,status,due_at']);
    expect(fin.code, fin.stderr).toBe(0);
    expect(fin.json()).toEqual({ number: 'INV-000001', status: 'FINALIZED', due_at: '2026-03-12T09:00:00.000Z' });

    const pdfFile = path.join(dir, 'inv.pdf');
    const pdf = await fos(['invoices', 'pdf', inv.id, '--output', pdfFile]);
    expect(pdf.code, pdf.stderr).toBe(0);
    expect((await readFile(pdfFile)).subarray(0, 5).toString()).toBe('%PDF-');

    const qbo = await fos(['invoices', 'export', inv.id, '--to', 'quickbooks']);
    expect(qbo.code, qbo.stderr).toBe(0);
    expect(qbo.stdout.split('\n')[0]).toMatch(/^Invoice number,Customer,Invoice date,Due date,/);
    expect(qbo.stdout).toContain('INV-000001,');
    const charges = await fos(['invoices', 'export', inv.id, '--output', path.join(dir, 'charges.csv')]);
    expect(charges.code).toBe(0);
    expect((await readFile(path.join(dir, 'charges.csv'), 'utf8')).trim().split('\n')).toHaveLength(3);

    expect((await fos(['invoices', 'send', inv.id, '--json', 'status'])).json()).toEqual({ status: 'SENT' });
    expect((await fos(['invoices', 'pay', inv.id, '--reference', 'ACH 4411', '--json', 'status,payment_reference'])).json()).toEqual({
      status: 'PAID',
      payment_reference: 'ACH 4411',
    });
    const voided = await fos(['invoices', 'void', inv.id, '--yes']);
    expect(voided.code).toBe(5);
    expect(voided.stderr).toContain('PAID');
  });

  it("a merchant's key: the same commands read its own invoices and charges (the merchant family)", async () => {
    const key = merchant.token;
    const list = await fos(['invoices', 'list', '--json', 'number,status,total'], key);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json()).toEqual([{ number: 'INV-000001', status: 'PAID', total: 42.5 }]); // finalized on: no drafts
    const id = (await fos(['invoices', 'list', '--json', 'id'], key)).json()[0].id as string;
    expect((await fos(['invoices', 'show', id.slice(0, 13), '--json', 'number'], key)).json()).toEqual({ number: 'INV-000001' });
    const pdfFile = path.join(dir, 'merchant.pdf');
    const pdf = await fos(['invoices', 'pdf', id.slice(0, 13), '--output', pdfFile], key);
    expect(pdf.code, pdf.stderr).toBe(0);
    expect((await readFile(pdfFile)).subarray(0, 5).toString()).toBe('%PDF-');
    const csv = await fos(['invoices', 'export', id], key);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trim().split('\n')).toHaveLength(3);
    const xero = await fos(['invoices', 'export', id, '--to', 'xero'], key);
    expect(xero.code).toBe(2);
    expect(xero.stderr).toContain("--to xero is the fulfiller's accounting export");
    const charges = await fos(['charges', 'list', '--invoice', 'none', '--json', 'calculated_amount'], key);
    expect(charges.code, charges.stderr).toBe(0);
    expect(charges.json()).toEqual([{ calculated_amount: 9 }]);
    // Writes stay the fulfiller's.
    expect((await fos(['invoices', 'finalize', id], key)).code).toBe(3);
  });

  it('fos charges list filters by merchant, category, period and invoice', async () => {
    const free = await fos(['charges', 'list', '--merchant-team', merchant.teamId, '--invoice', 'none', '--json', 'calculated_amount']);
    expect(free.code, free.stderr).toBe(0);
    expect(free.json()).toEqual([{ calculated_amount: 9 }]);
    const jan = await fos([
      'charges',
      'list',
      '--from',
      '2026-01-01',
      '--to',
      '2026-01-31',
      '--category',
      'STORAGE',
      '--json',
      'calculated_amount',
    ]);
    expect(jan.json()).toEqual([{ calculated_amount: 30 }]);
  });
});
