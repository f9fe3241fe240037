import { ChannelCallError, type ChannelEnv } from '../http.js';
import type { ChannelOrder, OpenConnection } from '../types.js';
import type { Page, Skipped } from '../connector.js';
import { restrictedDataToken, spCall } from './client.js';
import { addressFromAmazon, orderFromAmazon } from './map.js';
import { OPEN_STATUSES, type AmazonCredentials } from './types.js';

// Orders in (Orders API v0): getOrders since the sync cursor (LastUpdatedAfter; the first sync:
// open orders created in the last BACKFILL_DAYS), NextToken paging with the same filters (the
// docs: NextToken does not replace them), getOrderItems per order (NextToken too), and the
// buyer's address by the Restricted Data Token path: one RDT per page for
// /orders/v0/orders/{orderId}/address (every order), then getOrderAddress with it. Orders fos does
// not take are reported as skipped with the reason: FBA (AFN) orders, which Amazon ships, and
// Pending ones, whose payment Amazon has not authorized yet (taken once they are Unshipped).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = any;

const BACKFILL_DAYS = 30;
/**
 * getOrders shows an order's change about two minutes after it happened (the Orders API guide's
 * warning): a sync reads that much further back than the sync's own overlap, so a change made
 * just before the last sync, not yet visible then, is not missed (intake is idempotent).
 */
export const DATA_DELAY_MS = 2 * 60_000;
const ADDRESS_PATH = '/orders/v0/orders/{orderId}/address';

/** Why an order is not taken in, or null. */
function skipReason(o: Json): string | null {
  if (o.FulfillmentChannel === 'AFN') return 'fulfilled by Amazon (FulfillmentChannel AFN): Amazon ships it, not fos';
  if (o.OrderStatus === 'Shipped') return 'Shipped: nothing left to ship (confirmed by fos or outside it)';
  if (o.OrderStatus === 'Pending' || o.OrderStatus === 'PendingAvailability')
    return `${o.OrderStatus}: Amazon has not authorized the payment yet (taken once it is Unshipped)`;
  return null;
}

async function orderItems(conn: OpenConnection, env: ChannelEnv, id: string): Promise<Json[]> {
  const all: Json[] = [];
  let next: string | null = null;
  for (let page = 0; page < 20; page++) {
    const query: Record<string, string> = next ? { NextToken: next } : {};
    const { data } = await spCall<Json>(conn, env, 'GET', `orders/v0/orders/${encodeURIComponent(id)}/orderItems`, { query });
    all.push(...(data?.payload?.OrderItems ?? []));
    next = data?.payload?.NextToken || null;
    if (!next) break;
  }
  return all;
}

/** The address access of one page: an RDT, or why Amazon gives none (no approval for restricted data). */
type AddressAccess = { rdt: string } | { refused: string };

async function addressAccess(conn: OpenConnection, env: ChannelEnv): Promise<AddressAccess> {
  try {
    return { rdt: await restrictedDataToken(conn, env, ADDRESS_PATH) };
  } catch (err) {
    if (err instanceof ChannelCallError && err.permanent) return { refused: err.message };
    throw err; // transient: the sync fails and is tried again, rather than take orders without their address
  }
}

function noAddressNote(o: Json, why: string) {
  const a = o.ShippingAddress ?? {};
  const known = [a.City, a.StateOrRegion, a.PostalCode, a.CountryCode].filter((x) => typeof x === 'string' && x).join(', ');
  return (
    `Amazon gave no buyer name or street for this order (${why})${known ? `; it names ${known}` : ''}. The app needs the ` +
    'Direct-to-Consumer Shipping role (restricted data): until then, copy the address from Seller Central onto the order.'
  );
}

async function readOrder(conn: OpenConnection, env: ChannelEnv, o: Json, access: () => Promise<AddressAccess>): Promise<ChannelOrder> {
  const items = await orderItems(conn, env, o.AmazonOrderId);
  // A cancelled order needs no address (intake only cancels or ignores it).
  if (o.OrderStatus === 'Canceled') return orderFromAmazon(o, items, addressFromAmazon(o.ShippingAddress), null);
  const a = await access();
  let why = 'refused' in a ? a.refused : null;
  if ('rdt' in a) {
    try {
      const path = `orders/v0/orders/${encodeURIComponent(o.AmazonOrderId)}/address`;
      const { data } = await spCall<Json>(conn, env, 'GET', path, { rdt: a.rdt });
      const address = addressFromAmazon(data?.payload?.ShippingAddress);
      if (address?.address1) return orderFromAmazon(o, items, address, null);
      why = 'getOrderAddress answered without a street';
    } catch (err) {
      if (!(err instanceof ChannelCallError && (err.status === 403 || err.status === 401))) throw err;
      why = err.message;
    }
  }
  // No address rather than getOrders' partial one (city, region, postal code, country: in the note):
  // a new order is held for it (ADDRESS_VERIFICATION_FAILED), and an order fos already has keeps its
  // address (intake applies no missing address as an edit) when the restricted data goes away.
  return orderFromAmazon(o, items, null, noAddressNote(o, why!));
}

export async function amazonOrders(
  conn: OpenConnection,
  env: ChannelEnv,
  since: Date | null,
  token: string | null,
): Promise<Page<ChannelOrder>> {
  const c = conn.credentials as AmazonCredentials;
  // The page token carries Amazon's NextToken and the first page's CreatedAfter: NextToken pages
  // keep the same filters (the docs), and the backfill's start must not move between pages.
  const page = token ? (JSON.parse(token) as { next: string; created_after?: string }) : null;
  const createdAfter = page?.created_after ?? new Date(Date.now() - BACKFILL_DAYS * 86_400_000).toISOString();
  const query: Record<string, string | number | string[]> = since
    ? {
        MarketplaceIds: [c.marketplace_id],
        LastUpdatedAfter: new Date(since.getTime() - DATA_DELAY_MS).toISOString(),
        MaxResultsPerPage: 100,
      }
    : { MarketplaceIds: [c.marketplace_id], CreatedAfter: createdAfter, OrderStatuses: OPEN_STATUSES, MaxResultsPerPage: 100 };
  if (page) query.NextToken = page.next;
  const { data } = await spCall<Json>(conn, env, 'GET', 'orders/v0/orders', { query });
  const list: Json[] = data?.payload?.Orders ?? [];
  let access: Promise<AddressAccess> | null = null;
  const once = () => (access ??= addressAccess(conn, env));
  const items: ChannelOrder[] = [];
  const skipped: Skipped[] = [];
  for (const o of list) {
    const reason = skipReason(o);
    if (reason) skipped.push({ remote_id: String(o.AmazonOrderId), order_number: String(o.AmazonOrderId), reason });
    else items.push(await readOrder(conn, env, o, once));
  }
  const next: string | null = data?.payload?.NextToken || null;
  return { items, next: next && JSON.stringify({ next, ...(since ? {} : { created_after: createdAfter }) }), skipped };
}
