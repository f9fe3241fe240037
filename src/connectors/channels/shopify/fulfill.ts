import { ChannelCallError, type ChannelEnv } from '../http.js';
import { shopifyGraphql } from './client.js';
import { orderGid } from './map.js';
import { userErrors } from './reads.js';
import type { OpenConnection, ShippedLine, TrackingInfo } from '../types.js';

// Tracking out to Shopify: fulfillmentCreate, one call per location (Shopify takes fulfillment
// orders of one location per call), with the shipped lines (never more than remains) and the
// tracking. Before creating anything the shop's fulfillments are read: those already carrying
// this tracking number count as sent, so a push whose answer was lost (or that stopped after its
// first location) ends PUSHED on retry instead of FAILED or doubled.
// An order taken in by fulfillment-service mode has a FulfillmentOrder gid as its remote id and
// fulfillment-order line ids on its lines: that one fulfillment order is fulfilled.

interface FoNode {
  id: string;
  status: string;
  assignedLocation: { location: { id: string } | null } | null;
  lineItems: { nodes: { id: string; remainingQuantity: number; lineItem: { id: string } }[] };
}
interface FulfillmentNode {
  id: string;
  trackingInfo: { number: string | null }[];
  fulfillmentLineItems: { nodes: { quantity: number; lineItem: { id: string } }[] };
}

const FO_FIELDS = `id status assignedLocation { location { id } }
  lineItems(first: 100) { nodes { id remainingQuantity lineItem { id } } }`;
const FULFILLMENT_FIELDS = `id trackingInfo(first: 10) { number } fulfillmentLineItems(first: 100) { nodes { quantity lineItem { id } } }`;

const isFulfillmentOrderGid = (id: string) => id.startsWith('gid://shopify/FulfillmentOrder/');

async function readState(conn: OpenConnection, env: ChannelEnv, remoteId: string) {
  if (isFulfillmentOrderGid(remoteId)) {
    const data = await shopifyGraphql(
      conn,
      env,
      `query FulfillmentOrderState($id: ID!) { fulfillmentOrder(id: $id) { ${FO_FIELDS}
      fulfillments(first: 50) { nodes { ${FULFILLMENT_FIELDS} } } } }`,
      { id: remoteId },
    );
    if (!data.fulfillmentOrder) throw new ChannelCallError(`Shopify has no fulfillment order ${remoteId}`, true);
    return { fos: [data.fulfillmentOrder] as FoNode[], fulfillments: data.fulfillmentOrder.fulfillments.nodes as FulfillmentNode[] };
  }
  const data = await shopifyGraphql(
    conn,
    env,
    `query FulfillmentState($id: ID!) { order(id: $id) {
    fulfillmentOrders(first: 20) { nodes { ${FO_FIELDS} } }
    fulfillments(first: 50) { ${FULFILLMENT_FIELDS} } } }`,
    { id: orderGid(remoteId) },
  );
  if (!data.order) throw new ChannelCallError(`Shopify has no order ${remoteId}`, true);
  return { fos: data.order.fulfillmentOrders.nodes as FoNode[], fulfillments: data.order.fulfillments as FulfillmentNode[] };
}

type Group = { fulfillmentOrderId: string; fulfillmentOrderLineItems: { id: string; quantity: number }[] };

/** What is still to send, by location, after what the shop already holds under this tracking number. */
function plan(fos: FoNode[], fulfillments: FulfillmentNode[], lines: ShippedLine[], tracking: TrackingInfo) {
  // Wanted quantities by order line item id (fulfillment-order line ids translated).
  const lineOfFoLine = new Map(fos.flatMap((fo) => fo.lineItems.nodes.map((l) => [l.id, l.lineItem.id] as const)));
  const want = new Map<string, number>();
  for (const l of lines) {
    const id = lineOfFoLine.get(l.remote_id) ?? l.remote_id;
    want.set(id, (want.get(id) ?? 0) + l.quantity);
  }
  const already = tracking.number ? fulfillments.filter((f) => f.trackingInfo.some((t) => t.number === tracking.number)) : [];
  for (const f of already)
    for (const li of f.fulfillmentLineItems.nodes) want.set(li.lineItem.id, (want.get(li.lineItem.id) ?? 0) - li.quantity);
  const byLocation = new Map<string, Group[]>();
  for (const fo of fos) {
    if (!['OPEN', 'IN_PROGRESS'].includes(fo.status)) continue;
    const items = [];
    for (const li of fo.lineItems.nodes) {
      const q = Math.min(want.get(li.lineItem.id) ?? 0, li.remainingQuantity);
      if (q > 0) {
        items.push({ id: li.id, quantity: q });
        want.set(li.lineItem.id, (want.get(li.lineItem.id) ?? 0) - q);
      }
    }
    if (!items.length) continue;
    const location = fo.assignedLocation?.location?.id ?? '(none)';
    byLocation.set(location, [...(byLocation.get(location) ?? []), { fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: items }]);
  }
  return { already, byLocation };
}

export async function shopifyFulfill(
  conn: OpenConnection,
  env: ChannelEnv,
  remoteId: string,
  lines: ShippedLine[],
  tracking: TrackingInfo,
) {
  const { fos, fulfillments } = await readState(conn, env, remoteId);
  const { already, byLocation } = plan(fos, fulfillments, lines, tracking);
  if (!byLocation.size) {
    if (already.length) return { fulfillment_ids: already.map((f) => f.id), reconciled: true };
    throw new ChannelCallError(`Shopify order ${remoteId} has no open fulfillment order lines for the shipped items`, true);
  }
  const created: string[] = [];
  for (const groups of byLocation.values()) {
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
    created.push(String(res.fulfillmentCreate.fulfillment?.id ?? ''));
  }
  return { fulfillment_ids: [...already.map((f) => f.id), ...created], reconciled: false };
}
