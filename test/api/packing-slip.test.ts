import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/domain/teams/teams.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { parsePdf } from '../helpers/pdf.js';

// Packing slip PDF (GET /v1/ops/packages/{id}/packing-slip): parsed back with pdf-lib; the text
// is read from the (deflated) content streams, where pdf-lib writes hex strings for Tj.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown, key = token) =>
  t.call(method, url, { token: key, ...(body !== undefined ? { body } : {}) });

/** The table rows of `sku`: the cells drawn after it (sku, description, ordered, shipped, remaining[, price, total]). */
function rowsOf(text: string, sku: string): string[][] {
  const cells = text.split('\n');
  const out: string[][] = [];
  cells.forEach((c, i) => {
    if (c !== sku) return;
    const row = [c];
    for (let k = i + 1; k < cells.length && row.length < 7 && /^(\d+(\.\d+)?|[^\d].*)$/.test(cells[k]); k++) {
      if (row.length >= 2 && !/^\d+(\.\d+)?$/.test(cells[k])) break;
      row.push(cells[k]);
    }
    out.push(row);
  });
  return out;
}

async function slip(config: Record<string, unknown>) {
  const f = await fulfillmentFixture(t, {
    lines: [
      { quantity: 3, onHand: 9 },
      { quantity: 2, onHand: 9 },
    ],
    status: 'ACCEPTED',
  });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    name: 'Box 1',
    config,
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  const res = await call('GET', `/v1/ops/packages/${p.json().id}/packing-slip`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return { f, id: p.json().id as string, ...(await parsePdf(res.rawPayload)) };
}

describe('packing slip', () => {
  it('lists the package lines without prices or other items by default', async () => {
    const { f, doc, text } = await slip({});
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    expect(text).toContain('Packing slip');
    expect(text).toContain(`Order ${f.order.order_number}`);
    expect(text).toContain(f.foLines[0].sku);
    expect(text).not.toContain('Price');
    expect(text).not.toContain('Not in this shipment');
    expect(text).not.toContain(f.foLines[1].sku!);
  });

  it('shows prices and the unfulfilled units when the package config asks', async () => {
    const { f, text } = await slip({ show_prices_on_packing_slip: true, show_unfulfilled_items_on_packing_list: true });
    const price = (await t.db.prisma.orderLineItem.findUniqueOrThrow({ where: { id: f.foLines[0].order_line_item_id } })).price;
    expect(text).toContain(price.toFixed(2));
    expect(text).toContain('Not in this shipment (to follow)');
    expect(rowsOf(text, f.foLines[0].sku!)).toEqual([
      [f.foLines[0].sku, f.foLines[0].name, '3', '1', '2', price.toFixed(2), price.toFixed(2)],
    ]);
    expect(rowsOf(text, f.foLines[1].sku!)[0].slice(2, 5)).toEqual(['2', '0', '2']);
  });

  it('reads as a slip a merchant would send: merchant, return address, order and date, ship-to, item table, totals, note, pages', async () => {
    const f = await fulfillmentFixture(t, {
      lines: [
        { quantity: 3, onHand: 9 },
        { quantity: 2, onHand: 9 },
      ],
      status: 'ACCEPTED',
    });
    await t.db.prisma.order.update({ where: { id: f.order.id }, data: { note: 'Gift - please leave the invoice out' } });
    for (const [i, l] of f.foLines.entries())
      await t.db.prisma.orderLineItem.update({ where: { id: l.order_line_item_id }, data: { price: [12.5, 1999.99][i] } });
    const p = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      name: 'Box 1',
      config: { show_prices_on_packing_slip: true },
      package_line_items: [
        { sku: f.foLines[0].sku, quantity: 2 },
        { sku: f.foLines[1].sku, quantity: 2 },
      ],
    });
    expect(p.statusCode, p.body).toBe(201);
    const res = await call('GET', `/v1/ops/packages/${p.json().id}/packing-slip`);
    const { doc, text } = await parsePdf(res.rawPayload);
    const order = await t.db.prisma.order.findUniqueOrThrow({ where: { id: f.order.id }, include: { line_items: true } });
    const merchant = await t.db.prisma.team.findUniqueOrThrow({ where: { id: order.merchant_team_id } });
    const warehouse = await t.db.prisma.warehouse.findUniqueOrThrow({ where: { id: f.fo.warehouse_id } });
    const lines = text.split('\n');
    expect(lines[0]).toBe(merchant.name);
    expect(lines[1]).toBe(warehouse.name); // the return address: the shipping warehouse
    if (warehouse.address1) expect(lines).toContain(warehouse.address1);
    expect(lines).toContain(`Order ${order.order_number}`);
    expect(lines).toContain(`Order date ${order.created_at.toISOString().slice(0, 10)}`);
    const shipTo = lines.indexOf('Ship to');
    expect(lines.slice(shipTo + 1, shipTo + 5)).toEqual(['Grace Hopper', 'Navy Yard', '1 Compiler Road', 'Arlington, VA 22201']);
    expect(lines).toContain('US');
    expect(text, text).toMatch(/SKU\nDescription\nOrdered\nShipped\nRemaining\nPrice\nTotal\n/);
    const price = (sku: string) => order.line_items.find((l) => l.sku === sku)!.price;
    for (const [i, line] of f.foLines.entries()) {
      const shipped = 2;
      expect(rowsOf(text, line.sku!)).toEqual([
        [
          line.sku,
          line.name,
          String([3, 2][i]),
          String(shipped),
          String([3, 2][i] - shipped),
          price(line.sku!).toFixed(2),
          (price(line.sku!) * shipped).toFixed(2),
        ],
      ]);
    }
    const total = f.foLines.reduce((sum, l) => sum + price(l.sku!) * 2, 0);
    expect(lines).toContain(`Total of this package: ${total.toFixed(2)} USD`);
    expect(lines[lines.indexOf('Note') + 1]).toBe('Gift - please leave the invoice out');
    expect(doc.getPageCount()).toBe(1);
    expect(lines).toContain('Page 1 of 1');
  });

  it('numbers the pages of a long order and repeats the table header on each', async () => {
    const f = await fulfillmentFixture(t, { lines: Array.from({ length: 60 }, () => ({ quantity: 1, onHand: 2 })), status: 'ACCEPTED' });
    const p = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      name: 'Crate',
      package_line_items: f.foLines.map((l) => ({ sku: l.sku, quantity: 1 })),
    });
    expect(p.statusCode, p.body).toBe(201);
    const { doc, text } = await parsePdf((await call('GET', `/v1/ops/packages/${p.json().id}/packing-slip`)).rawPayload);
    const pages = doc.getPageCount();
    expect(pages).toBeGreaterThan(1);
    for (let i = 1; i <= pages; i++) expect(text).toContain(`Page ${i} of ${pages}`);
    expect(text.match(/^Description$/gm)).toHaveLength(pages);
    for (const l of f.foLines) expect(rowsOf(text, l.sku!)).toHaveLength(1);
    for (const i of doc.getPageIndices()) expect(doc.getPage(i).getSize()).toEqual({ width: 612, height: 792 });
  });

  it('is served to the fulfiller team only, with READ_FULFILLMENTS', async () => {
    const { id } = await slip({});
    const team = await createTeam(t.db, { name: 'Other Warehouse', kind: 'FULFILLER' });
    const other = await t.key({ teamId: team.id, tier: 4 });
    expect((await call('GET', `/v1/ops/packages/${id}/packing-slip`, undefined, other.token)).statusCode).toBe(404);
    const files = await t.key({ permissions: ['READ_FILES'] });
    expect((await call('GET', `/v1/ops/packages/${id}/packing-slip`, undefined, files.token)).statusCode).toBe(403);
    expect((await call('GET', '/v1/ops/packages/00000000-0000-7000-8000-000000000000/packing-slip')).statusCode).toBe(404);
  });
});
