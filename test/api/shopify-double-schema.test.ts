import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopifyDouble, type ShopifyDouble } from '../helpers/shopify-double.js';
import { SHOPIFY_API_VERSION } from '../../src/connectors/channels/shopify/client.js';

// The Shopify double checks every request against the Admin schema subset
// (test/fixtures/shopify-admin-subset.graphql): what fos sends passes (the channel suites run
// through it), and an unknown field, argument, enum value or input field is answered with
// GraphQL errors, as Shopify answers them, so a query fos could not send to Shopify fails here too.

let shopify: ShopifyDouble;
beforeAll(async () => {
  shopify = await shopifyDouble({ token: 'shpat_schema' });
});
afterAll(() => shopify?.close());

async function gql(query: string, variables: object = {}, version = SHOPIFY_API_VERSION) {
  const res = await fetch(`${shopify.url}/admin/api/${version}/graphql.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': 'shpat_schema' },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { data?: any; errors?: { message: string }[] };
}

const EVENT = `mutation fulfillmentEventCreate($fulfillmentEvent: FulfillmentEventInput!) {
  fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) { fulfillmentEvent { id status } userErrors { field message } } }`;

describe('the Shopify double validates requests against the Admin schema', () => {
  it('answers a valid query', async () => {
    const r = await gql('query { shop { name currencyCode } }');
    expect(r.errors).toBeUndefined();
    expect(r.data.shop.name).toBe('Double Shop');
  });

  it('refuses an unknown field, an unknown argument and a wrong argument type', async () => {
    expect((await gql('query { shop { name planName } }')).errors![0]!.message).toMatch(/Cannot query field "planName" on type "Shop"/);
    expect((await gql('query { orders(first: 5, status: OPEN) { nodes { id } } }')).errors![0]!.message).toMatch(
      /Unknown argument "status" on field "QueryRoot.orders"/,
    );
    expect((await gql('query { orders(first: "5") { nodes { id } } }')).errors![0]!.message).toMatch(/Int cannot represent/);
    expect((await gql('query { orders(first: 5, sortKey: NEWEST) { nodes { id } } }')).errors![0]!.message).toMatch(/NEWEST/);
    expect(shopify.invalid.length).toBe(4);
  });

  it('refuses variables that do not fit the input types (unknown input field, missing required one, bad enum)', async () => {
    const ok = await gql(EVENT, { fulfillmentEvent: { fulfillmentId: 'gid://shopify/Fulfillment/1', status: 'DELIVERED' } });
    expect(ok.errors).toBeUndefined();
    const unknown = await gql(EVENT, {
      fulfillmentEvent: { fulfillmentId: 'gid://shopify/Fulfillment/1', status: 'DELIVERED', trackingNumber: 'X' },
    });
    expect(unknown.errors![0]!.message).toMatch(/Field "trackingNumber" is not defined by type "FulfillmentEventInput"/);
    const missing = await gql(EVENT, { fulfillmentEvent: { status: 'DELIVERED' } });
    expect(missing.errors![0]!.message).toMatch(/fulfillmentId/);
    const badEnum = await gql(EVENT, { fulfillmentEvent: { fulfillmentId: 'gid://shopify/Fulfillment/1', status: 'SHIPPED' } });
    expect(badEnum.errors![0]!.message).toMatch(/SHIPPED/);
  });

  it('applies the version: changeFromQuantity from 2026-01, ignoreCompareQuantity gone from 2026-04', async () => {
    const q = `mutation inventorySetQuantities($input: InventorySetQuantitiesInput!) {
      inventorySetQuantities(input: $input) { inventoryAdjustmentGroup { reason } userErrors { field message } } }`;
    const qty = { inventoryItemId: 'gid://shopify/InventoryItem/1', locationId: 'gid://shopify/Location/1', quantity: 3 };
    const legacy = { name: 'available', reason: 'correction', ignoreCompareQuantity: true, quantities: [qty] };
    const current = { name: 'available', reason: 'correction', quantities: [{ ...qty, changeFromQuantity: null }] };
    expect((await gql(q, { input: legacy }, '2025-10')).errors).toBeUndefined();
    expect((await gql(q, { input: current }, '2025-10')).errors![0]!.message).toMatch(/changeFromQuantity/);
    expect((await gql(q, { input: current }, '2026-04')).errors).toBeUndefined();
    expect((await gql(q, { input: legacy }, '2026-04')).errors![0]!.message).toMatch(/ignoreCompareQuantity/);
  });
});
