import { ChannelCallError, type ChannelEnv } from '../http.js';
import { SHOPIFY_API_VERSION, shopifyGraphql } from './client.js';
import { orderFromGraphql, orderGid, variantFromGraphql } from './map.js';
import type { ChannelOrder, ChannelVariant, OpenConnection, ShipmentUpdate } from '../types.js';
import type { ShipmentStatus } from '../../../domain/carrier-integrations/index.js';

// Shopify connector: reads (shop, orders, variants), shipment events and stock. The transport,
// tokens and retries are in shopify-gql.ts and shopify-auth.ts; tracking pushes in
// shopify-fulfill.ts; fulfillment-service mode in fulfillment-service.ts.

export { SHOPIFY_API_VERSION, shopifyGraphql };
const PAGE = 50;

export const shopifyBaseUrl = (domain: string) => `https://${domain}`;

export const userErrors = (what: string, errs: { field?: string[]; message: string }[] | undefined) => {
  if (errs?.length) throw new ChannelCallError(`Shopify ${what}: ${errs.map((e) => e.message).join('; ')}`, true);
};

/** One real call: the shop's name. */
export async function checkShopify(conn: OpenConnection, env: ChannelEnv) {
  const data = await shopifyGraphql<{ shop: { name: string; currencyCode?: string } }>(conn, env, 'query { shop { name currencyCode } }');
  return { name: data.shop.name, currency: data.shop.currencyCode ?? null };
}

const MONEY = '{ shopMoney { amount currencyCode } }';
const ADDRESS = '{ name company address1 address2 city provinceCode countryCodeV2 zip phone }';
const ORDER_FIELDS = `id name email phone createdAt updatedAt cancelledAt displayFinancialStatus note tags currencyCode
  totalTaxSet ${MONEY} totalShippingPriceSet ${MONEY} customer { displayName email phone }
  shippingAddress ${ADDRESS} billingAddress ${ADDRESS} shippingLine { title } customAttributes { key value }
  lineItems(first: 100) { nodes { id sku name quantity currentQuantity originalUnitPriceSet ${MONEY} totalDiscountSet ${MONEY} variant { id } } }`;

/** A page of orders updated since `since` (all open orders when null), oldest update first. */
export async function shopifyOrdersPage(conn: OpenConnection, env: ChannelEnv, since: Date | null, after: string | null) {
  const query = since ? `updated_at:>='${since.toISOString()}'` : 'status:open';
  const data = await shopifyGraphql(
    conn,
    env,
    `query Orders($first: Int!, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes { ${ORDER_FIELDS} } pageInfo { hasNextPage endCursor } } }`,
    { first: PAGE, after, query },
  );
  const orders: ChannelOrder[] = data.orders.nodes.map(orderFromGraphql);
  return { orders, next: data.orders.pageInfo.hasNextPage ? String(data.orders.pageInfo.endCursor) : null };
}

/** A page of the shop's product variants. */
export async function shopifyVariantsPage(conn: OpenConnection, env: ChannelEnv, after: string | null, currency: string | null) {
  const data = await shopifyGraphql(
    conn,
    env,
    `query Variants($first: Int!, $after: String) {
    productVariants(first: $first, after: $after) {
      nodes { id sku barcode title displayName price image { url } product { id title featuredImage { url } }
        inventoryItem { id harmonizedSystemCode countryCodeOfOrigin measurement { weight { unit value } } } }
      pageInfo { hasNextPage endCursor } } }`,
    { first: PAGE, after },
  );
  const variants: ChannelVariant[] = data.productVariants.nodes.map((v: object) => variantFromGraphql(v, currency));
  return { variants, next: data.productVariants.pageInfo.hasNextPage ? String(data.productVariants.pageInfo.endCursor) : null };
}

/**
 * fos is the source of truth and sets absolute figures, so it opts out of Shopify's compare-and-
 * swap check: from API 2026-01 with `changeFromQuantity: null` on each quantity (mandatory from
 * 2026-04, when `ignoreCompareQuantity` is removed), before that with `ignoreCompareQuantity`.
 */
export function setQuantitiesInput(apiVersion: string, locationId: string, items: { inventory_item_id: string; quantity: number }[]) {
  const casField = apiVersion === 'unstable' || apiVersion >= '2026-01';
  return {
    name: 'available',
    reason: 'correction',
    ...(casField ? {} : { ignoreCompareQuantity: true }),
    quantities: items.map((i) => ({
      inventoryItemId: i.inventory_item_id,
      locationId,
      quantity: i.quantity,
      ...(casField ? { changeFromQuantity: null } : {}),
    })),
  };
}

// fos shipment_status -> Shopify FulfillmentEventStatus, every value mapped (RETURN_TO_SENDER has
// none: FAILURE), so an update is SKIPPED only when the shop has no fulfillment with that tracking.
const EVENT_STATUS: Record<ShipmentStatus, string> = {
  LABEL_PRINTED: 'LABEL_PRINTED',
  PRE_TRANSIT: 'CONFIRMED',
  IN_TRANSIT: 'IN_TRANSIT',
  OUT_FOR_DELIVERY: 'OUT_FOR_DELIVERY',
  DELIVERED: 'DELIVERED',
  RETURN_TO_SENDER: 'FAILURE',
  FAILURE: 'FAILURE',
};

/**
 * Shipment status out: a fulfillmentEventCreate on the order's fulfillment that carries the
 * tracking number (the one the fulfill's push created). Null when there is none to update.
 */
export async function shopifyShipmentEvent(conn: OpenConnection, env: ChannelEnv, orderId: string, u: ShipmentUpdate) {
  const status = EVENT_STATUS[u.status as ShipmentStatus];
  if (!status) return null;
  // An order taken in by fulfillment-service mode is one fulfillment order: its fulfillments.
  const serviceMode = orderId.startsWith('gid://shopify/FulfillmentOrder/');
  const data = await shopifyGraphql(
    conn,
    env,
    serviceMode
      ? `query FulfillmentOrderFulfillments($id: ID!) { fulfillmentOrder(id: $id) { fulfillments(first: 50) { nodes { id trackingInfo(first: 10) { number } } } } }`
      : `query OrderFulfillments($id: ID!) { order(id: $id) { fulfillments(first: 50) { id trackingInfo(first: 10) { number } } } }`,
    { id: serviceMode ? orderId : orderGid(orderId) },
  );
  const fulfillments = ((serviceMode ? data.fulfillmentOrder?.fulfillments?.nodes : data.order?.fulfillments) ?? []) as {
    id: string;
    trackingInfo: { number: string | null }[];
  }[];
  const f = fulfillments.find((x) => x.trackingInfo.some((t) => t.number === u.tracking_code));
  if (!f) return null;
  const res = await shopifyGraphql(
    conn,
    env,
    `mutation fulfillmentEventCreate($fulfillmentEvent: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) { fulfillmentEvent { id status } userErrors { field message } } }`,
    { fulfillmentEvent: { fulfillmentId: f.id, status, message: u.message ?? undefined, happenedAt: u.occurred_at ?? undefined } },
  );
  userErrors('fulfillmentEventCreate', res.fulfillmentEventCreate.userErrors);
  return { fulfillment_id: f.id, status };
}

/** Stock out: the available quantity of inventory items at the shop's mapped location. */
export async function shopifySetAvailable(conn: OpenConnection, env: ChannelEnv, items: { inventory_item_id: string; quantity: number }[]) {
  if (!conn.settings.location_id) throw new ChannelCallError('no Shopify location is mapped for this shop (settings.location_id)', true);
  const res = await shopifyGraphql(
    conn,
    env,
    `mutation inventorySetQuantities($input: InventorySetQuantitiesInput!) {
    inventorySetQuantities(input: $input) { inventoryAdjustmentGroup { reason } userErrors { field message } } }`,
    { input: setQuantitiesInput(conn.api_version ?? SHOPIFY_API_VERSION, conn.settings.location_id, items) },
  );
  userErrors('inventorySetQuantities', res.inventorySetQuantities.userErrors);
}
