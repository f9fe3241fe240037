import { createAdminApiClient } from '@shopify/admin-api-client';
import { ChannelCallError, describeNetworkError, policyFetch, type ChannelEnv } from './http.js';
import { orderFromGraphql, orderGid, variantFromGraphql } from './shopify-map.js';
import type {
  ChannelOrder,
  ChannelVariant,
  OpenConnection,
  ShipmentUpdate,
  ShippedLine,
  ShopifyCredentials,
  TrackingInfo,
} from './types.js';
import type { ShipmentStatus } from '../carrier-integrations/tracking-events.js';

// Shopify connector over the official @shopify/admin-api-client (GraphQL Admin API). The client
// always builds https://<shop domain>/admin/api/<version>/graphql.json; its customFetchApi hook
// sends that request to the shop's api_base_url instead (a proxy or a test double) through the
// outbound network policy, and keeps the transport error so a failure is described precisely.

/** The latest stable Admin API version: Shopify releases one on the first day of each quarter. */
export const SHOPIFY_API_VERSION = ((d: Date) =>
  `${d.getUTCFullYear()}-${String(Math.floor(d.getUTCMonth() / 3) * 3 + 1).padStart(2, '0')}`)(new Date());
const PAGE = 50;

export const shopifyBaseUrl = (domain: string) => `https://${domain}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
export async function shopifyGraphql<T = any>(
  conn: OpenConnection,
  env: ChannelEnv,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const creds = conn.credentials as ShopifyCredentials;
  const base = new URL(conn.api_base_url);
  const fetchFn = policyFetch(env);
  let transportError: unknown;
  const client = createAdminApiClient({
    storeDomain: conn.shop_domain,
    apiVersion: conn.api_version ?? SHOPIFY_API_VERSION,
    accessToken: creds.access_token,
    userAgentPrefix: 'fos',
    customFetchApi: async (url: string, init?: RequestInit) => {
      const target = new URL(url);
      const to = new URL(base.pathname.replace(/\/$/, '') + target.pathname + target.search, base.origin);
      try {
        return await fetchFn(to, init);
      } catch (err) {
        // A kept-alive connection the server had just closed: a read is safely sent once more
        // (a mutation is not: the outbox retries it, after asking Shopify what remains).
        if (isStaleSocket(err) && !/^\s*mutation/.test(String(init?.body ? JSON.parse(String(init.body)).query : ''))) {
          try {
            return await fetchFn(to, init);
          } catch (again) {
            transportError = again;
            throw again;
          }
        }
        transportError = err;
        throw err;
      }
    },
  });
  const res = await client.request(query, { variables });
  if (res.errors) {
    const status = res.errors.networkStatusCode ?? null;
    if (transportError) throw new ChannelCallError(describeNetworkError(transportError, base.host));
    if (status === 401 || status === 403)
      throw new ChannelCallError(
        `Shopify refused the access token (HTTP ${status}): check the Admin API access token and its scopes`,
        true,
        status,
      );
    if (status === 404) throw new ChannelCallError(`unknown Shopify shop ${conn.shop_domain} (HTTP 404)`, true, status);
    const gql = res.errors.graphQLErrors?.map((e: { message?: string }) => e.message).join('; ');
    const throttled = /throttl/i.test(gql ?? '');
    throw new ChannelCallError(
      `Shopify: ${gql || res.errors.message || `HTTP ${status}`}`,
      !throttled && status !== null && status < 500 && status !== 429,
      status,
    );
  }
  return res.data as T;
}

const isStaleSocket = (err: unknown) => {
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
};

const userErrors = (what: string, errs: { field?: string[]; message: string }[] | undefined) => {
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

interface FoLine {
  id: string;
  remainingQuantity: number;
  lineItem: { id: string };
}

/**
 * Tracking out: the order's open fulfillment orders, then one fulfillmentCreate with the shipped
 * lines (matched by line item id, never more than remains) and the tracking info.
 */
export async function shopifyFulfill(conn: OpenConnection, env: ChannelEnv, orderId: string, lines: ShippedLine[], tracking: TrackingInfo) {
  const data = await shopifyGraphql(
    conn,
    env,
    `query FulfillmentOrders($id: ID!) { order(id: $id) {
    fulfillmentOrders(first: 20) { nodes { id status lineItems(first: 100) { nodes { id remainingQuantity lineItem { id } } } } } } }`,
    { id: orderGid(orderId) },
  );
  if (!data.order) throw new ChannelCallError(`Shopify has no order ${orderId}`, true);
  const want = new Map(lines.map((l) => [l.remote_id, l.quantity]));
  const groups: { fulfillmentOrderId: string; fulfillmentOrderLineItems: { id: string; quantity: number }[] }[] = [];
  for (const fo of data.order.fulfillmentOrders.nodes as { id: string; status: string; lineItems: { nodes: FoLine[] } }[]) {
    if (!['OPEN', 'IN_PROGRESS'].includes(fo.status)) continue;
    const items = [];
    for (const li of fo.lineItems.nodes) {
      const q = Math.min(want.get(li.lineItem.id) ?? 0, li.remainingQuantity);
      if (q > 0) {
        items.push({ id: li.id, quantity: q });
        want.set(li.lineItem.id, (want.get(li.lineItem.id) ?? 0) - q);
      }
    }
    if (items.length) groups.push({ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: items });
  }
  if (!groups.length)
    throw new ChannelCallError(`Shopify order ${orderId} has no open fulfillment order lines for the shipped items`, true);
  const res = await shopifyGraphql(
    conn,
    env,
    `mutation fulfillmentCreate($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id status } userErrors { field message } } }`,
    {
      fulfillment: {
        lineItemsByFulfillmentOrder: groups,
        notifyCustomer: conn.settings.notify_customer,
        trackingInfo: { number: tracking.number, url: tracking.url, company: tracking.company },
      },
    },
  );
  userErrors('fulfillmentCreate', res.fulfillmentCreate.userErrors);
  return { fulfillment_id: String(res.fulfillmentCreate.fulfillment?.id ?? '') };
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
 * tracking number (the one the fulfil's push created). Null when there is none to update.
 */
export async function shopifyShipmentEvent(conn: OpenConnection, env: ChannelEnv, orderId: string, u: ShipmentUpdate) {
  const status = EVENT_STATUS[u.status as ShipmentStatus];
  if (!status) return null;
  const data = await shopifyGraphql(
    conn,
    env,
    `query OrderFulfillments($id: ID!) { order(id: $id) { fulfillments(first: 50) { id trackingInfo(first: 10) { number } } } }`,
    { id: orderGid(orderId) },
  );
  const fulfillments = (data.order?.fulfillments ?? []) as { id: string; trackingInfo: { number: string | null }[] }[];
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
