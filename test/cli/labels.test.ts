import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';

// `fos labels import-invoice` through the real command tree against a real server: columns typed
// by the API schema, bad rows reported by number before anything is sent, unmatched lines named
// by CSV row, and a second import of the same file changing nothing.

let t: TestApp;
let env: Record<string, string>;
let dir: string;
let token: string;
beforeAll(async () => {
  ({ t, token, env } = await cliServer());
  dir = await mkdtemp(path.join(tmpdir(), 'fos-inv-cli-'));
  const rate = await t.call('POST', '/v1/ops/carrier-rates', {
    token,
    body: {
      carrier_id: 'ups',
      carrier_name: 'UPS',
      service_id: 'ground',
      service_name: 'Ground',
      amount: 5,
      per_unit_weight: 0,
      weight_unit: 'G',
      estimated_days: 3,
    },
  });
  expect(rate.statusCode).toBe(201);
});
afterAll(() => t?.close());

const fos = (...args: string[]) => runCli(args, { env });

describe('fos labels import-invoice', () => {
  it('imports a carrier CSV, names unmatched rows, and a second import changes nothing', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const p = await t.call('POST', '/v1/ops/packages', {
      token,
      body: { fulfillment_order_id: f.fo.id, weight: 100, weight_unit: 'G', package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }] },
    });
    const l = await t.call('POST', `/v1/ops/packages/${p.json().id}/label`, { token, body: { rate_strategy: 'CHEAPEST' } });
    const tracking = l.json().shipping_label_tracking_code as string;

    const bad = path.join(dir, 'bad.csv');
    await writeFile(
      bad,
      'Tracking Number,Carrier Invoice Number,Carrier Invoice Date,Corrected Carrier Cost\n1Z1,INV,2026-11-20,abc\n,INV,2026-11-20,3\n',
    );
    const refused = await fos('labels', 'import-invoice', bad);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('row 2: corrected_carrier_cost "abc" is not a number');
    expect(refused.stderr).toContain('row 3: no tracking_number');
    expect(await t.db.prisma.carrierInvoiceImport.count()).toBe(0);

    const file = path.join(dir, 'ups-invoice.csv');
    await writeFile(
      file,
      `tracking_number,carrier_invoice_number,carrier_invoice_date,correction_type,corrected_carrier_cost\n${tracking},INV-9,2026-11-20,WEIGHT_CORRECTION,7.25\n1ZUNKNOWN,INV-9,2026-11-20,,2\n`,
    );
    const r = await fos('labels', 'import-invoice', file, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      file: 'ups-invoice.csv',
      rows: 2,
      requests: 1,
      replayed: 0,
      corrected: 1,
      unchanged: 0,
      unmatched: [{ row: 3, tracking_number: '1ZUNKNOWN' }],
    });
    expect(r.stderr).toContain('1 line(s) matched no label: row 3 (1ZUNKNOWN)');
    const label = (await t.call('GET', `/v1/ops/packages/${p.json().id}`, { token })).json().shipping_label;
    expect(label.carrier_correction).toMatchObject({
      version: 1,
      source_import: { filename: 'ups-invoice.csv' },
      correction_type: 'WEIGHT_CORRECTION',
      corrected_carrier_cost: 7.25,
      currency: 'USD',
    });

    const again = await fos('labels', 'import-invoice', file, '--format', 'json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ replayed: 1, corrected: 0 });
    expect(again.stderr).toContain('already imported');
    const listed = await fos('labels', 'invoices', '--format', 'json');
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
  });
});
