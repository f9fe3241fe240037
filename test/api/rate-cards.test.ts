import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './orders.fixtures.js';
import { httpCall, otherFulfiller } from './inventory.fixtures.js';

// Rate cards after the fact (issue 25 item 7): PUT /v1/ops/delegations/{id}/rate-card makes a new
// version (version_id from the server, semantic_version given or the next patch); new charges are
// priced with it and name it in pricing_trace, older charges keep theirs.

let w: World;
let base: string;
let other: { token: string };
let merchant: { teamId: string; delegationId: string };
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  other = await otherFulfiller(w.t);
  merchant = await w.t.merchant();
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, token = w.token) => httpCall(base, token, method, path, body);
const CARD = { id: 'rc-std', name: 'Standard', currency: 'EUR', receiving: { rate_per_unit: 0.25 } };

/** Receives `qty` units on a purchase order of the merchant; the receipt's charge. */
async function receiveAndCharge(sku: string, qty: number) {
  const po = await http('POST', '/v1/ops/purchase-orders', {
    warehouse_id: w.east,
    merchant_team_id: merchant.teamId,
    lines: [{ sku, quantity: qty }],
  });
  expect(po.status, JSON.stringify(po.body)).toBe(201);
  const rec = await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, { lines: [{ sku, quantity: qty }] });
  expect(rec.status, JSON.stringify(rec.body)).toBe(200);
  return rec.body.charge_id ? (await http('GET', `/v1/ops/charges/${rec.body.charge_id}`)).body : null;
}

describe('PUT /v1/ops/delegations/{id}/rate-card', () => {
  it('versions the card: new charges use the new version, old charges keep theirs', async () => {
    await w.product('RC-1', {}, { merchantId: merchant.teamId });
    expect(await receiveAndCharge('RC-1', 4)).toBeNull(); // no card yet: nothing billed

    const list = await http('GET', '/v1/ops/delegations');
    expect(list.body.data.map((d: { id: string }) => d.id)).toContain(merchant.delegationId);
    const v1 = await http('PUT', `/v1/ops/delegations/${merchant.delegationId}/rate-card`, CARD);
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    const listed = async () => (await http('GET', '/v1/ops/delegations')).body.data.find((d: any) => d.id === merchant.delegationId);
    expect(await listed()).toMatchObject({ rate_card_id: null, rate_card_name: 'Standard' }); // no versioned card: the JSON card's name
    expect(v1.body.rate_card).toMatchObject({ ...CARD, semantic_version: '1.0.0', version_id: expect.any(String) });
    const first = await receiveAndCharge('RC-1', 4);
    expect(first).toMatchObject({
      calculated_amount: 1,
      pricing_trace: { version_id: v1.body.rate_card.version_id, semantic_version: '1.0.0' },
    });

    const v2 = await http('PUT', `/v1/ops/delegations/${merchant.delegationId}/rate-card`, { ...CARD, receiving: { rate_per_unit: 0.5 } });
    expect(v2.body.rate_card).toMatchObject({ semantic_version: '1.0.1' });
    expect(v2.body.rate_card.version_id).not.toBe(v1.body.rate_card.version_id);
    const second = await receiveAndCharge('RC-1', 4);
    expect(second).toMatchObject({
      calculated_amount: 2,
      pricing_trace: { version_id: v2.body.rate_card.version_id, semantic_version: '1.0.1' },
    });
    const again = (await http('GET', `/v1/ops/charges/${first.id}`)).body;
    expect(again).toMatchObject({ calculated_amount: 1, pricing_trace: { version_id: v1.body.rate_card.version_id } });

    const named = await http('PUT', `/v1/ops/delegations/${merchant.delegationId}/rate-card`, { ...CARD, semantic_version: '2.0.0' });
    expect(named.body.rate_card.semantic_version).toBe('2.0.0');
  });

  it("refuses bad cards, unknown fields, a version_id of the caller's and other teams", async () => {
    const put = (body: unknown, token?: string) => http('PUT', `/v1/ops/delegations/${merchant.delegationId}/rate-card`, body, token);
    expect((await put({ ...CARD, currency: 'EURO' })).status).toBe(400);
    expect((await put({ ...CARD, receiving: { rate_per_unit: -1 } })).status).toBe(400);
    expect((await put({ ...CARD, storage: { rate_per_unit: { HOURLY: 1 } } })).status).toBe(400);
    expect((await put({ ...CARD, version_id: 'mine' })).status).toBe(400);
    expect((await put({ name: 'no id' })).status).toBe(400);
    expect((await put(CARD, other.token)).status).toBe(404);
    expect((await http('PUT', '/v1/ops/delegations/nope/rate-card', CARD)).status).toBe(404);
  });
});
