import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveStock } from '../../src/domain/inventory/receive.js';
import { createWarehouse } from '../../src/domain/teams/teams.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';

// Address verification through EasyPost (spec 2.6): converting an order verifies its shipping
// address and fills every address field and address_verification_response member; a failing
// address holds the order (ADDRESS_VERIFICATION_FAILED); an unchanged address is not verified
// twice (cached by address_hash); a locked address is left alone; editing the address verifies
// the new one, and an operator releases the hold once it is fixed.

let t: TestApp;
let ep: EasyPostDouble;
let n = 0;

const ADDRESS = {
  name: 'Ada Lovelace',
  company: null,
  address1: '12 Analytical Way',
  address2: null,
  city: 'Portland',
  state: 'OR',
  country: 'US',
  zip: '97201',
  phone: null,
};

beforeAll(async () => {
  [t, ep] = await Promise.all([testApp({ allowPrivateWebhooks: true }), easypostDouble()]);
  const ci = await t.call('POST', '/v1/ops/carrier-integrations', {
    body: { name: 'EasyPost', type: 'EASYPOST', api_base_url: `${ep.url}/v2`, credentials: { api_key: ep.apiKey } },
  });
  expect(ci.statusCode, ci.body).toBe(201);
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close()]);
});

async function order(address: Record<string, unknown>) {
  const merchant = await t.merchant();
  const wh = (await createWarehouse(t.db, { team_id: t.teamId, name: `W${++n}` })).id;
  const sku = `ADDR-${n}`;
  const p = await t.db.prisma.product.create({
    data: {
      team_id: merchant.teamId,
      merchant_team_id: merchant.teamId,
      fulfiller_team_id: t.teamId,
      name: sku,
      sku,
      measurement_unit: 'MM',
      weight_unit: 'G',
    },
  });
  await t.db.prisma.$transaction((tx) => receiveStock(tx, { product_id: p.id, warehouse_id: wh, quantity: 5 }));
  const d = await t.call('POST', '/v1/ops/draft-orders', {
    body: {
      merchant_team_id: merchant.teamId,
      shipping_address: address,
      line_items: [{ sku, quantity: 1, price: 10 }],
      payment_status: 'PAID',
    },
  });
  expect(d.statusCode, d.body).toBe(201);
  const o = await t.call('POST', `/v1/ops/draft-orders/${d.json().id}/convert`);
  expect(o.statusCode, o.body).toBe(200);
  return o.json();
}

describe('address verification', () => {
  it('verifies on conversion and fills every spec field', async () => {
    const o = await order(ADDRESS);
    const sent = ep.calls(/^\/v2\/addresses$/, 'POST').at(-1)!;
    expect(sent.body).toMatchObject({
      address: { street1: '12 Analytical Way', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
      verify: ['delivery', 'zip4'],
    });
    expect(o).toMatchObject({
      address_verified: true,
      address_residential: 'RESIDENTIAL',
      address_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(o.address_verified_at).toBeTruthy();
    expect(o.address_verification_response).toEqual({
      verified: true,
      residential: 'RESIDENTIAL',
      errors: [],
      corrected_address: { street1: '12 ANALYTICAL WAY', street2: null, city: 'PORTLAND', state: 'OR', zip5: '97201', zip4: '1234' },
      metadata: {
        is_active: true,
        is_cmra: false,
        is_vacant: false,
        record_type: 'S',
        dpv_footnotes: null,
        dpv_match_code: 'Y',
        latitude: 37.78,
        longitude: -122.39,
      },
    });
    expect(o.order_fulfillment_holds.filter((h: any) => h.active)).toHaveLength(0);

    // The same address again: answered from the cache, no call.
    const before = ep.calls(/^\/v2\/addresses$/, 'POST').length;
    const again = await order(ADDRESS);
    expect(again.address_verified).toBe(true);
    expect(again.address_hash).toBe(o.address_hash);
    expect(ep.calls(/^\/v2\/addresses$/, 'POST').length).toBe(before);
    const re = await t.call('POST', `/v1/ops/orders/${o.id}/verify-address`);
    expect(re.statusCode, re.body).toBe(200);
    expect(ep.calls(/^\/v2\/addresses$/, 'POST').length).toBe(before);
  });

  it('a failing address holds the order once; a locked address is left alone', async () => {
    ep.addressResults.set('1 Nowhere Lane', { success: false, errors: [{ code: 'E.ADDRESS.NOT_FOUND', message: 'Address not found' }] });
    const o = await order({ ...ADDRESS, address1: '1 Nowhere Lane', zip: '00000' });
    expect(o).toMatchObject({ address_verified: false, address_residential: 'UNKNOWN' });
    expect(o.address_verification_response).toMatchObject({
      verified: false,
      errors: [{ code: 'E.ADDRESS.NOT_FOUND', message: 'Address not found' }],
      metadata: { is_active: false, dpv_match_code: 'N' },
    });
    const holds = o.order_fulfillment_holds.filter((h: any) => h.active);
    expect(holds).toEqual([
      expect.objectContaining({ reason: 'ADDRESS_VERIFICATION_FAILED', reason_notes: expect.stringContaining('Address not found') }),
    ]);
    const re = await t.call('POST', `/v1/ops/orders/${o.id}/verify-address`);
    expect(re.json().order_fulfillment_holds.filter((h: any) => h.active)).toHaveLength(1);

    await t.db.prisma.order.update({
      where: { id: o.id },
      data: { lock_address: true, shipping_address: { ...ADDRESS, address1: '2 Other St' }, address_hash: null },
    });
    const before = ep.calls(/^\/v2\/addresses$/, 'POST').length;
    const locked = await t.call('POST', `/v1/ops/orders/${o.id}/verify-address`);
    expect(locked.statusCode).toBe(200);
    expect(ep.calls(/^\/v2\/addresses$/, 'POST').length).toBe(before);
    expect(locked.json().address_hash).toBeNull();
  });

  it('editing the address verifies the new one; the operator releases the hold after the fix', async () => {
    const o = await order({ ...ADDRESS, address1: '40 Edit Street' });
    expect(o.address_verified).toBe(true);
    ep.addressResults.set('7 Bad Zip Road', { success: false, errors: [{ code: 'E.ADDRESS.NOT_FOUND', message: 'ZIP does not match' }] });
    ep.addressResults.set('8 Bad Zip Road', { success: false, errors: [{ code: 'E.ADDRESS.NOT_FOUND', message: 'ZIP does not match' }] });
    const calls = () => ep.calls(/^\/v2\/addresses$/, 'POST');
    const before = calls().length;
    const patch = (address1: string, zip = '97201') =>
      t.call('PATCH', `/v1/ops/orders/${o.id}`, { body: { shipping_address: { ...ADDRESS, address1, zip } } });

    // A format-valid address the carrier refuses: verified through EasyPost, held.
    const bad = await patch('7 Bad Zip Road', '97299');
    expect(bad.statusCode, bad.body).toBe(200);
    expect(calls()).toHaveLength(before + 1);
    expect(calls().at(-1)!.body.address).toMatchObject({ street1: '7 Bad Zip Road', zip: '97299' });
    expect(bad.json()).toMatchObject({
      address_verified: false,
      address_verification_response: { verified: false, errors: [{ code: 'E.ADDRESS.NOT_FOUND', message: 'ZIP does not match' }] },
    });
    const holds = (r: { json(): any }) => r.json().order_fulfillment_holds.filter((h: any) => h.active);
    expect(holds(bad)).toEqual([expect.objectContaining({ reason: 'ADDRESS_VERIFICATION_FAILED' })]);

    // Another failing address while the hold is open: verified, no second hold.
    const worse = await patch('8 Bad Zip Road', '97298');
    expect(calls()).toHaveLength(before + 2);
    expect(holds(worse)).toHaveLength(1);

    // Fixed: the earlier verified address comes from the cache (no call); the hold stays until an operator releases it.
    const fixed = await patch('40 Edit Street');
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(calls()).toHaveLength(before + 2);
    expect(fixed.json()).toMatchObject({ address_verified: true, address_verification_response: { verified: true } });
    const [hold] = holds(fixed);
    const released = await t.call('POST', `/v1/ops/orders/${o.id}/holds/${hold.id}/release`);
    expect(released.statusCode, released.body).toBe(200);
    expect(holds(await t.call('GET', `/v1/ops/orders/${o.id}`))).toHaveLength(0);
  });
});
