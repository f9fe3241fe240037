import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { testApp, type TestApp } from '../helpers/app.js';
import { pdfText } from '../helpers/pdf.js';
import { closeDuePeriods } from '../../src/domain/invoices/generate.js';

// Invoices through HTTP (docs/invoices.md): the period close at a clock the test moves, lines by
// category, the lifecycle with gapless numbers, void releasing charges, merchant visibility,
// events, the PDF's text and the CSV files' columns.

let now = Date.parse('2026-01-20T12:00:00Z');
let t: TestApp;
let m: { teamId: string; token: string; delegationId: string };
let other: { teamId: string; token: string; delegationId: string };

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Charges as the billing engine writes them (part A prices them; here they are the fixture). */
async function charges(merchantTeamId: string, rows: Array<[category: string, amount: number, quantity: number, at: string]>) {
  await t.db.prisma.charge.createMany({
    data: rows.map(([category, amount, quantity, at], i) => ({
      name: `${category} ${i}`,
      category,
      currency: 'USD',
      quantity,
      calculated_amount: amount,
      original_amount: amount,
      merchant_team_id: merchantTeamId,
      fulfiller_team_id: t.teamId,
      created_at: new Date(at),
    })),
  });
}

const JAN: Array<[string, number, number, string]> = [
  ['SHIPPING', 10.5, 1, '2026-01-01T00:00:00Z'],
  ['SHIPPING', 10.5, 1, '2026-01-15T10:00:00Z'],
  ['SHIPPING', 10.5, 1, '2026-01-31T23:59:59.999Z'],
  ['STORAGE', 4.25, 3, '2026-01-10T00:00:00Z'],
  ['STORAGE', 4.25, 3, '2026-01-11T00:00:00Z'],
  ['RECEIVING', 20, 40, '2026-01-05T08:00:00Z'],
];

beforeAll(async () => {
  t = await testApp({ clock: () => now });
  m = await t.merchant();
  other = await t.merchant();
  await charges(m.teamId, [...JAN, ['SHIPPING', 7, 1, '2026-02-01T00:00:00Z'], ['SHIPPING', 1, 1, '2025-12-31T23:59:59Z']]);
  await charges(other.teamId, [['STORAGE', 3, 1, '2026-01-03T00:00:00Z']]);
  // Decembers charge was billed long ago: it must not pull the close back a month.
  const dec = await t.db.prisma.invoice.create({
    data: {
      fulfiller_team_id: t.teamId,
      merchant_team_id: m.teamId,
      fulfillment_delegation_id: m.delegationId,
      status: 'PAID',
      period_kind: 'MONTHLY',
      period_start: '2025-12-01',
      period_end: '2025-12-31',
      lines: [],
      source: 'API',
      // Made in the simulated past, as the server's clock dates invoices (lists order by created_at).
      generated_at: new Date(now),
      created_at: new Date(now),
    },
  });
  await t.db.prisma.charge.updateMany({ where: { created_at: { lt: new Date('2026-01-01') } }, data: { invoice_id: dec.id } });
});
afterAll(() => t?.close());

const ops = (method: string, url: string, body?: unknown) => t.call(method, url, body === undefined ? {} : { body });

describe('the period close', () => {
  it('closes nothing before the period ends, then exactly one draft per merchant and month', async () => {
    expect(await closeDuePeriods(t.db, new Date(now))).toEqual([]);
    expect(await t.db.prisma.invoice.count({ where: { status: 'DRAFT' } })).toBe(0);
    now = Date.parse('2026-02-01T00:00:05Z');
    const made = await closeDuePeriods(t.db, new Date(now));
    expect(made.map((i) => [i.merchant_team_id, i.period_start, i.period_end, i.source]).sort()).toEqual(
      [
        [m.teamId, '2026-01-01', '2026-01-31', 'SCHEDULE'],
        [other.teamId, '2026-01-01', '2026-01-31', 'SCHEDULE'],
      ].sort(),
    );
    // Closing again (a restart, another replica) makes nothing.
    expect(await closeDuePeriods(t.db, new Date(now))).toEqual([]);
    expect(await t.db.prisma.invoice.count({ where: { status: 'DRAFT' } })).toBe(2);
  });

  it('sums the lines by category and links every charge of the period, and only those', async () => {
    const res = await ops('GET', '/v1/ops/invoices', { merchant_team_id: m.teamId });
    const list = await t.call('GET', '/v1/ops/invoices', { query: { merchant_team_id: m.teamId, status: 'DRAFT' } });
    expect(res.statusCode).toBe(200);
    const [inv] = list.json().data;
    expect(inv).toMatchObject({ status: 'DRAFT', number: null, currency: 'USD', charge_count: 6, subtotal: 60, tax_amount: 0, total: 60 });
    expect(inv.lines).toEqual([
      { category: 'RECEIVING', description: 'Receiving', quantity: 40, charge_count: 1, amount: 20 },
      { category: 'SHIPPING', description: 'Shipping', quantity: 3, charge_count: 3, amount: 31.5 },
      { category: 'STORAGE', description: 'Storage', quantity: 6, charge_count: 2, amount: 8.5 },
    ]);
    const linked = await t.db.prisma.charge.findMany({ where: { invoice_id: inv.id }, select: { created_at: true } });
    expect(linked).toHaveLength(6);
    expect(await t.db.prisma.charge.count({ where: { merchant_team_id: m.teamId, invoice_id: null } })).toBe(1); // February's
    const feb = await t.call('GET', '/v1/ops/charges', { query: { merchant_team_id: m.teamId, invoice_id: 'none' } });
    expect(feb.json().data.map((c: any) => c.created_at)).toEqual(['2026-02-01T00:00:00.000Z']);
    const jan = await t.call('GET', '/v1/ops/charges', { query: { period_start: '2026-01-31', period_end: '2026-01-31', limit: 100 } });
    expect(jan.json().data.map((c: any) => c.created_at)).toEqual(['2026-01-31T23:59:59.999Z']);
  });
});

describe('lifecycle', () => {
  let inv: any;
  beforeAll(async () => {
    inv = (await t.call('GET', '/v1/ops/invoices', { query: { merchant_team_id: m.teamId, status: 'DRAFT' } })).json().data[0];
  });

  it('regenerates a draft with new terms; a merchant does not see drafts', async () => {
    const terms = await ops('PATCH', `/v1/ops/delegations/${m.delegationId}/invoice-terms`, {
      tax_rate: 8.25,
      tax_label: 'Sales tax',
      payment_terms_days: 15,
      bill_to: {
        company: 'Merchant Goods LLC',
        address1: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'US',
        email: 'ap@merchant.example',
      },
    });
    expect(terms.statusCode).toBe(200);
    expect(terms.json()).toMatchObject({ period: 'MONTHLY', tax_rate: 8.25, closed_through: '2026-02-01' });
    const regen = await ops('POST', `/v1/ops/invoices/${inv.id}/regenerate`);
    expect(regen.statusCode).toBe(200);
    expect(regen.json()).toMatchObject({
      id: inv.id,
      subtotal: 60,
      tax_label: 'Sales tax',
      tax_rate: 8.25,
      tax_amount: 4.95,
      total: 64.95,
      charge_count: 6,
    });
    const seen = (await t.call('GET', '/v1/merchant/invoices', { token: m.token })).json().data;
    expect(seen.map((i: any) => i.status)).toEqual(['PAID']); // December's, not the draft
    expect((await t.call('GET', `/v1/merchant/invoices/${inv.id}`, { token: m.token })).statusCode).toBe(404);
  });

  it('a regenerated draft claims the charges of its period made since', async () => {
    const draft = (await t.call('GET', '/v1/ops/invoices', { query: { merchant_team_id: other.teamId } })).json().data[0];
    expect(draft).toMatchObject({ status: 'DRAFT', charge_count: 1, subtotal: 3 });
    await charges(other.teamId, [['PICK', 4, 2, '2026-01-30T00:00:00Z']]);
    const regen = (await ops('POST', `/v1/ops/invoices/${draft.id}/regenerate`)).json();
    expect(regen).toMatchObject({ charge_count: 2, subtotal: 7, total: 7 });
    expect(regen.lines.map((l: any) => [l.category, l.description, l.amount])).toEqual([
      ['PICK', 'Pick fees', 4],
      ['STORAGE', 'Storage', 3],
    ]);
  });

  it('finalizes with the first number and a due date, announces it to both teams, then send and pay', async () => {
    const fin = await ops('POST', `/v1/ops/invoices/${inv.id}/finalize`);
    expect(fin.statusCode).toBe(200);
    expect(fin.json()).toMatchObject({
      status: 'FINALIZED',
      number: 'INV-000001',
      finalized_at: '2026-02-01T00:00:05.000Z',
      due_at: '2026-02-16T00:00:05.000Z',
    });
    expect((await ops('POST', `/v1/ops/invoices/${inv.id}/finalize`)).statusCode).toBe(409);
    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'invoice.finalized' } });
    expect(events.map((e) => e.team_id).sort()).toEqual([t.teamId, m.teamId].sort());
    expect((events[0].payload as any).number).toBe('INV-000001');
    // Both teams named, in the answer, the event, the list and the merchant's view alike.
    const merchantName = (await t.db.prisma.team.findUniqueOrThrow({ where: { id: m.teamId } })).name;
    const names = { merchant_team_name: merchantName, fulfiller_team_name: expect.any(String) };
    expect(fin.json()).toMatchObject(names);
    expect(events[0].payload).toMatchObject(names);
    const listed = (await ops('GET', '/v1/ops/invoices')).json().data.find((i: any) => i.id === inv.id);
    expect(listed).toMatchObject(names);
    expect((await t.call('GET', `/v1/merchant/invoices/${inv.id}`, { token: m.token })).json()).toMatchObject(names);
    expect((await ops('POST', `/v1/ops/invoices/${inv.id}/pay`, {})).statusCode).toBe(200);
    expect((await ops('POST', `/v1/ops/invoices/${inv.id}/void`, {})).statusCode).toBe(409);
    expect((await ops('POST', `/v1/ops/invoices/${inv.id}/send`)).statusCode).toBe(409);
  });

  it('shows the merchant its invoice and charges, never another merchant its own', async () => {
    const list = await t.call('GET', '/v1/merchant/invoices', { token: m.token });
    expect(list.json().data.map((i: any) => [i.id, i.status])).toContainEqual([inv.id, 'PAID']);
    expect((await t.call('GET', `/v1/merchant/invoices/${inv.id}`, { token: other.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/v1/merchant/invoices/${inv.id}/pdf`, { token: other.token })).statusCode).toBe(404);
    const pdf = await t.call('GET', `/v1/merchant/invoices/${inv.id}/pdf`, { token: m.token });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const mine = await t.call('GET', '/v1/merchant/charges', { token: m.token, query: { invoice_id: inv.id, limit: 100 } });
    expect(mine.json().data).toHaveLength(6);
    expect(new Set(mine.json().data.map((c: any) => c.merchant_team_id))).toEqual(new Set([m.teamId]));
    const theirs = await t.call('GET', '/v1/merchant/charges', { token: other.token, query: { limit: 100 } });
    expect(new Set(theirs.json().data.map((c: any) => c.merchant_team_id))).toEqual(new Set([other.teamId]));
    const csv = await t.call('GET', `/v1/merchant/invoices/${inv.id}/export`, { token: m.token, query: { format: 'charges' } });
    expect(csv.body.trim().split('\n')).toHaveLength(7);
    expect((await t.call('GET', '/v1/merchant/invoices', { token: t.adminToken })).statusCode).toBe(403);
  });

  it('void releases the charges to the next invoice of the period; numbers stay without gaps', async () => {
    const body = { merchant_team_id: m.teamId, period_start: '2026-02-01', period_end: '2026-02-28' };
    const first = await ops('POST', '/v1/ops/invoices', body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ period_kind: 'MONTHLY', source: 'API', charge_count: 1, subtotal: 7 });
    const again = await ops('POST', '/v1/ops/invoices', body);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    // February is still running (the clock is at Feb 1): its later charges belong on it, so it stays a draft.
    const early = await ops('POST', `/v1/ops/invoices/${first.json().id}/finalize`);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ period_end: '2026-02-28', period_ends_at: '2026-03-01T00:00:00.000Z' });
    expect((await ops('GET', `/v1/ops/invoices/${first.json().id}`)).json()).toMatchObject({ status: 'DRAFT', number: null });
    now = Date.parse('2026-03-01T00:00:05Z');
    const fin = await ops('POST', `/v1/ops/invoices/${first.json().id}/finalize`);
    expect(fin.json().number).toBe('INV-000002');
    expect((await ops('POST', '/v1/ops/invoices', body)).statusCode).toBe(409);
    const voided = await ops('POST', `/v1/ops/invoices/${first.json().id}/void`, { reason: 'wrong rate' });
    expect(voided.json()).toMatchObject({ status: 'VOID', number: 'INV-000002', void_reason: 'wrong rate' });
    expect(await t.db.prisma.charge.count({ where: { invoice_id: first.json().id } })).toBe(0);
    const next = await ops('POST', '/v1/ops/invoices', body);
    expect(next.statusCode).toBe(201);
    expect(next.json()).toMatchObject({ charge_count: 1, subtotal: 7, tax_amount: 0.58, total: 7.58 });
    expect((await ops('POST', `/v1/ops/invoices/${next.json().id}/finalize`)).json().number).toBe('INV-000003');
  });

  it('numbers concurrent finalizes without gaps or repeats', async () => {
    const merchants = await Promise.all(Array.from({ length: 6 }, () => t.merchant()));
    for (const mm of merchants) await charges(mm.teamId, [['STORAGE', 2, 1, '2026-01-02T00:00:00Z']]);
    const drafts = await Promise.all(
      merchants.map((mm) =>
        ops('POST', '/v1/ops/invoices', { merchant_team_id: mm.teamId, period_start: '2026-01-01', period_end: '2026-01-31' }),
      ),
    );
    const finals = await Promise.all(drafts.map((d) => ops('POST', `/v1/ops/invoices/${d.json().id}/finalize`)));
    expect(finals.map((f) => f.statusCode)).toEqual(finals.map(() => 200));
    const numbers = (await t.db.prisma.invoice.findMany({ where: { sequence: { not: null } }, orderBy: { sequence: 'asc' } })).map(
      (i) => i.sequence,
    );
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(numbers.length).toBe(9);
  });
});

describe('documents', () => {
  let inv: any;
  beforeAll(async () => {
    const key = `logos/${Date.now()}.png`;
    await t.app.files.storage.put(key, Readable.from([Buffer.from(PNG_1X1, 'base64')]));
    const file = await t.db.prisma.file.create({
      data: { team_id: t.teamId, name: 'logo.png', url: 'x', mimetype: 'image/png', size: 70, tags: [], storage_key: key },
    });
    const profile = await ops('PATCH', '/v1/ops/billing-profile', {
      legal_name: 'Acme Fulfillment Inc.',
      address: { address1: '500 Dock Rd', city: 'Reno', state: 'NV', zip: '89502', country: 'US' },
      tax_id: 'EIN 12-3456789',
      logo_file_id: file.id,
      footer: 'Thank you for your business.',
    });
    expect(profile.statusCode).toBe(200);
    inv = (await t.call('GET', '/v1/ops/invoices', { query: { merchant_team_id: m.teamId, status: 'PAID' } })).json().data[0];
  });

  it('prints logo, addresses, period, lines, tax line and total', async () => {
    const res = await ops('GET', `/v1/ops/invoices/${inv.id}/pdf`);
    expect(res.statusCode).toBe(200);
    const bytes = res.rawPayload;
    const text = await pdfText(bytes);
    for (const s of [
      'INVOICE',
      'Number: INV-000001',
      'Period: 2026-01-01 to 2026-01-31',
      'Acme Fulfillment Inc.',
      '500 Dock Rd',
      'Tax ID: EIN 12-3456789',
      'Bill to',
      'Merchant Goods LLC',
      'Springfield IL 62701',
      'Shipping',
      '31.50',
      'Storage',
      '8.50',
      'Receiving',
      '20.00',
      'Subtotal',
      'USD 60.00',
      'Sales tax (8.25%)',
      'USD 4.95',
      'Total due',
      'USD 64.95',
      'Thank you for your business.',
    ])
      expect(text).toContain(s);
    const doc = await PDFDocument.load(bytes);
    const images = [...doc.context.enumerateIndirectObjects()].filter(
      ([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype'))?.toString() === '/Image',
    );
    expect(images.length).toBeGreaterThan(0); // the logo (and its alpha mask)
  });

  it('exports its charges, and QuickBooks Online and Xero import files with their documented columns', async () => {
    const charges = await ops('GET', `/v1/ops/invoices/${inv.id}/export?format=charges`);
    const rows = charges.body.trim().split('\n');
    expect(rows[0].split(',').slice(0, 7)).toEqual([
      'id',
      'created_at',
      'category',
      'name',
      'description',
      'quantity',
      'calculated_amount',
    ]);
    expect(rows).toHaveLength(7);
    // QuickBooks Online maps these headers by itself (Intuit, "Import invoices in batches").
    const qbo = (await ops('GET', `/v1/ops/invoices/${inv.id}/export?format=quickbooks`)).body.trim().split('\n');
    expect(qbo[0]).toBe(
      'Invoice number,Customer,Invoice date,Due date,Terms,Memo,Item(Product/Service),Item Description,Item Quantity,Item Rate,Item Amount,Item tax code,Service Date',
    );
    expect(qbo).toHaveLength(4);
    expect(qbo[1].startsWith('INV-000001,Merchant Goods LLC,02/01/2026,02/16/2026,Net 15,')).toBe(true);
    // Xero's SalesInvoiceTemplate.csv.
    const xero = (await ops('GET', `/v1/ops/invoices/${inv.id}/export?format=xero&account_code=4000`)).body.trim().split('\n');
    expect(xero[0]).toBe(
      '*ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,POPostalCode,POCountry,*InvoiceNumber,Reference,*InvoiceDate,*DueDate,InventoryItemCode,*Description,*Quantity,*UnitAmount,Discount,*AccountCode,*TaxType,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2,Currency,BrandingTheme',
    );
    const cells: string[][] = parse(xero.join('\n'));
    expect(cells.slice(1).map((c) => [c[0], c[1], c[10], c[12], c[13], c[19], c[20], c[25]])).toEqual(
      Array(3).fill(['Merchant Goods LLC', 'ap@merchant.example', 'INV-000001', '01/02/2026', '16/02/2026', '4000', 'Sales tax', 'USD']),
    );
    const amounts = cells.slice(1).map((c) => Number(c[17]));
    expect(amounts.reduce((a, b) => a + b, 0)).toBeCloseTo(60, 6);
    // A draft has no number for the importers to group by: its charges export, the accounting ones are a 409.
    const [draft] = (await t.call('GET', '/v1/ops/invoices', { query: { merchant_team_id: other.teamId, status: 'DRAFT' } })).json().data;
    expect((await ops('GET', `/v1/ops/invoices/${draft.id}/export?format=charges`)).statusCode).toBe(200);
    for (const format of ['quickbooks', 'xero']) {
      const refused = await ops('GET', `/v1/ops/invoices/${draft.id}/export?format=${format}`);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().detail).toContain('finalize it before exporting');
    }
  });
});
