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

async function slip(config: Record<string, unknown>) {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 3, onHand: 9 }, { quantity: 2, onHand: 9 }], status: 'ACCEPTED' });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id, name: 'Box 1', config, package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
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
    expect(text).toContain(`1 x  ${f.foLines[0].sku}`);
    expect(text).not.toContain('each');
    expect(text).not.toContain('Not in this shipment');
    expect(text).not.toContain(f.foLines[1].sku!);
  });

  it('shows prices and the unfulfilled units when the package config asks', async () => {
    const { f, text } = await slip({ show_prices_on_packing_slip: true, show_unfulfilled_items_on_packing_list: true });
    const price = (await t.db.prisma.orderLineItem.findUniqueOrThrow({ where: { id: f.foLines[0].order_line_item_id } })).price;
    expect(text).toContain(`${price.toFixed(2)} USD each`);
    expect(text).toContain('Not in this shipment (to follow)');
    expect(text).toContain(`2 x  ${f.foLines[0].sku}`); // 3 ordered, 1 in this package
    expect(text).toContain(`2 x  ${f.foLines[1].sku}`);
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
