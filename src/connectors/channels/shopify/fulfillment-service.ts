import type { Db, Shop } from '../../../db/types.js';
import type { Principal } from '../../../domain/keys/index.js';
import { DomainError, invalid, notFound } from '../../../domain/errors.js';
import type { OutboundPolicy } from '../../../domain/carrier-integrations/index.js';
import { cancelFromChannel } from '../../../domain/channels/index.js';
import { openConnection } from '../../../domain/channels/index.js';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import { intakeOrder, matchLines } from '../../../domain/channels/index.js';
import { shopifyGraphql } from './client.js';
import { userErrors } from './reads.js';
import { shopScope } from '../../../domain/channels/index.js';
import type { ChannelOrder, OpenConnection } from '../types.js';

// Shopify fulfillment-service mode (docs/sales-channels.md §2c): fos registers itself on the
// shop as a fulfillment service (a location of its own). A merchant then requests fulfillment of
// the fulfillment orders assigned to that location; Shopify POSTs a notification to
// <callbackUrl>/fulfillment_order_notification, and fos reads the requests
// (assignedFulfillmentOrders) and answers each: accepted and taken in as a fos order (one per
// fulfillment order, its remote id the FulfillmentOrder gid), or rejected with a reason when fos
// cannot serve it (a SKU it has no product for). A cancellation request is accepted (and the fos
// order cancelled) while nothing is packed, rejected once packing has started or it shipped.

export interface Outcome {
  fulfillment_order_id: string;
  outcome: 'ACCEPTED' | 'REJECTED' | 'FAILED';
  order_id: string | null;
  reason: string | null;
}

/** fulfillmentServiceCreate; the service and its location are kept in the shop's settings. */
export async function registerFulfillmentService(db: Db, p: Principal, shopId: string, origin: string, env: ChannelEnv) {
  const shop = await db.prisma.shop.findFirst({ where: { id: shopId, ...shopScope(p) } });
  const row = shop && (await db.prisma.shopConnection.findUnique({ where: { shop_id: shopId } }));
  if (!shop || !row) throw notFound('Shop', shopId);
  if (row.shop_type !== 'SHOPIFY') throw invalid('shop_id', 'fulfillment-service mode is for Shopify shops');
  const conn = openConnection(row, db);
  if (conn.settings.fulfillment_service) return conn.settings.fulfillment_service;
  const team = shop.fulfiller_team_id
    ? await db.prisma.team.findUnique({ where: { id: shop.fulfiller_team_id }, select: { name: true } })
    : null;
  const callbackUrl = `${origin}/v1/channels/${shopId}/fulfillment-service`;
  const data = await shopifyGraphql(
    conn,
    env,
    `mutation fulfillmentServiceCreate($name: String!, $callbackUrl: URL!, $trackingSupport: Boolean, $inventoryManagement: Boolean) {
    fulfillmentServiceCreate(name: $name, callbackUrl: $callbackUrl, trackingSupport: $trackingSupport, inventoryManagement: $inventoryManagement) {
      fulfillmentService { id serviceName callbackUrl location { id } } userErrors { field message } } }`,
    { name: team?.name ?? 'fos', callbackUrl, trackingSupport: false, inventoryManagement: false },
  ).catch(platformError);
  userErrors('fulfillmentServiceCreate', data.fulfillmentServiceCreate.userErrors);
  const service = data.fulfillmentServiceCreate.fulfillmentService;
  const fulfillment_service = { id: String(service.id), location_id: String(service.location.id), callback_url: callbackUrl };
  // The service's location is where fos's stock is set from now on, unless one was chosen.
  const settings = { ...conn.settings, fulfillment_service, location_id: conn.settings.location_id ?? fulfillment_service.location_id };
  await db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { settings: settings as never } });
  return fulfillment_service;
}

const platformError = (err: unknown): never => {
  if (err instanceof ChannelCallError) throw new DomainError('validation-failed', `Shopify: ${err.message.replace(/^Shopify:? /, '')}.`);
  throw err;
};

const FO_FIELDS = `id status requestStatus orderId orderName
  destination { firstName lastName company address1 address2 city province countryCode zip phone email }
  lineItems(first: 100) { nodes { id sku productTitle remainingQuantity variant { id } lineItem { id }
    financialSummaries { originalUnitPriceSet { shopMoney { amount } } } } }`;

async function assigned(conn: OpenConnection, env: ChannelEnv, status: 'FULFILLMENT_REQUESTED' | 'CANCELLATION_REQUESTED') {
  const data = await shopifyGraphql(
    conn,
    env,
    `query AssignedFulfillmentOrders($first: Int!, $assignmentStatus: FulfillmentOrderAssignmentStatus, $locationIds: [ID!]) {
    shop { currencyCode }
    assignedFulfillmentOrders(first: $first, assignmentStatus: $assignmentStatus, locationIds: $locationIds) { nodes { ${FO_FIELDS} } } }`,
    { first: 50, assignmentStatus: status, locationIds: [conn.settings.fulfillment_service!.location_id] },
  );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field
  return { currency: String(data.shop?.currencyCode ?? 'USD'), nodes: data.assignedFulfillmentOrders.nodes as any[] };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field
function orderOf(fo: any, currency: string): ChannelOrder {
  const d = fo.destination ?? {};
  const name = [d.firstName, d.lastName].filter(Boolean).join(' ') || null;
  return {
    remote_id: fo.id,
    order_number: fo.orderName ?? fo.id,
    updated_at: null,
    cancelled: false,
    paid: true, // the merchant asked for it to be fulfilled
    authorized: false,
    currency,
    note: null,
    tags: [],
    email: d.email ?? null,
    customer_name: name,
    phone: d.phone ?? null,
    shipping_address: {
      name,
      company: d.company ?? null,
      address1: d.address1 ?? null,
      address2: d.address2 ?? null,
      city: d.city ?? null,
      state: d.province ?? null,
      country: d.countryCode ?? null,
      zip: d.zip ?? null,
      phone: d.phone ?? null,
    },
    billing_address: null,
    shipping_method: null,
    total_tax: 0,
    total_shipping: 0,
    metadata: [
      { key: 'order_id', value: String(fo.orderId ?? '') },
      { key: 'fulfillment_order_id', value: fo.id },
    ],
    lines: (fo.lineItems?.nodes ?? [])
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON
      .filter((l: any) => l.remainingQuantity > 0)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON
      .map((l: any) => ({
        remote_id: l.id,
        remote_variant_id: l.variant?.id ?? null,
        sku: l.sku ?? null,
        name: l.productTitle ?? l.sku ?? 'item',
        quantity: l.remainingQuantity,
        price: Number(l.financialSummaries?.[0]?.originalUnitPriceSet?.shopMoney?.amount ?? 0) || 0,
        discount: 0,
      })),
  };
}

async function answer(conn: OpenConnection, env: ChannelEnv, mutation: string, vars: Record<string, unknown>) {
  const args = Object.keys(vars)
    .map((k) => `${k}: $${k}`)
    .join(', ');
  const types: Record<string, string> = { id: 'ID!', message: 'String', reason: 'FulfillmentOrderRejectionReason' };
  const decl = Object.keys(vars)
    .map((k) => `$${k}: ${types[k]}`)
    .join(', ');
  const data = await shopifyGraphql(
    conn,
    env,
    `mutation ${mutation}(${decl}) { ${mutation}(${args}) { fulfillmentOrder { id status requestStatus } userErrors { field message } } }`,
    vars,
  );
  userErrors(mutation, data[mutation].userErrors);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field
type FoNode = any;

/** Each request answered on its own: one that fails is reported FAILED and the rest still answered. */
async function answerEach(nodes: FoNode[], answerOne: (fo: FoNode) => Promise<Outcome>): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const fo of nodes) {
    try {
      out.push(await answerOne(fo));
    } catch (err) {
      const reason = String((err as Error).message ?? err).slice(0, 500);
      out.push({ fulfillment_order_id: fo.id, outcome: 'FAILED', order_id: null, reason });
    }
  }
  return out;
}

async function fulfillmentRequests(db: Db, shop: Shop, conn: OpenConnection, env: ChannelEnv, policy: OutboundPolicy) {
  const { currency, nodes } = await assigned(conn, env, 'FULFILLMENT_REQUESTED');
  return answerEach(nodes, async (fo): Promise<Outcome> => {
    const order = orderOf(fo, currency);
    const unknown = (await matchLines(db, shop, order)).filter((l) => !l.product).map((l) => l.sku ?? l.name);
    if (unknown.length || !order.lines.length) {
      const reason = unknown.length ? `fos has no product for SKU ${unknown.join(', ')}` : 'nothing left to fulfill';
      await answer(conn, env, 'fulfillmentOrderRejectFulfillmentRequest', { id: fo.id, reason: 'INELIGIBLE_PRODUCT', message: reason });
      return { fulfillment_order_id: fo.id, outcome: 'REJECTED', order_id: null, reason };
    }
    // Taken in first (idempotent on the fulfillment order), accepted second: a lost acceptance is
    // answered on the next notification without a second fos order.
    const r = await intakeOrder(db, shop, order, policy);
    await answer(conn, env, 'fulfillmentOrderAcceptFulfillmentRequest', { id: fo.id, message: `fos order ${order.order_number}` });
    return { fulfillment_order_id: fo.id, outcome: 'ACCEPTED', order_id: r.order_id, reason: null };
  });
}

/** Packing started: a package exists for the order, or one of its fulfillment orders is under way or done. */
async function packingStarted(db: Db, orderId: string) {
  const fos = await db.prisma.fulfillmentOrder.findMany({ where: { order_id: orderId }, select: { id: true, status: true } });
  if (fos.some((f) => f.status === 'IN_PROGRESS' || f.status === 'FULFILLED')) return true;
  return (await db.prisma.package.count({ where: { fulfillment_order_id: { in: fos.map((f) => f.id) } } })) > 0;
}

async function cancellationRequests(db: Db, shop: Shop, conn: OpenConnection, env: ChannelEnv) {
  const { nodes } = await assigned(conn, env, 'CANCELLATION_REQUESTED');
  return answerEach(nodes, async (fo): Promise<Outcome> => {
    const order = await db.prisma.order.findUnique({
      where: { shop_id_remote_id: { shop_id: shop.id, remote_id: fo.id } },
      select: { id: true, status: true, order_number: true },
    });
    if (order && order.status !== 'CANCELLED' && (await packingStarted(db, order.id))) {
      const reason = `fos order ${order.order_number} is already packed or shipped`;
      await answer(conn, env, 'fulfillmentOrderRejectCancellationRequest', { id: fo.id, message: reason });
      return { fulfillment_order_id: fo.id, outcome: 'REJECTED', order_id: order.id, reason };
    }
    if (order && order.status !== 'CANCELLED') await cancelFromChannel(db, shop.fulfiller_team_id!, order.id);
    const message = order ? `fos order ${order.order_number} cancelled` : 'nothing was started';
    await answer(conn, env, 'fulfillmentOrderAcceptCancellationRequest', { id: fo.id, message });
    return { fulfillment_order_id: fo.id, outcome: 'ACCEPTED', order_id: order?.id ?? null, reason: null };
  });
}

/** Shopify's notification, already verified: every pending request of that kind is answered. */
export async function answerFulfillmentNotification(db: Db, shopId: string, kind: string, env: ChannelEnv, policy: OutboundPolicy) {
  const shop = await db.prisma.shop.findUniqueOrThrow({ where: { id: shopId } });
  const row = await db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
  const conn = openConnection(row, db);
  if (!conn.settings.fulfillment_service) throw invalid('shop_id', `shop ${shopId} is not registered as a fulfillment service`);
  const result = { kind, fulfillment_requests: [] as Outcome[], cancellation_requests: [] as Outcome[] };
  if (kind === 'FULFILLMENT_REQUEST') result.fulfillment_requests = await fulfillmentRequests(db, shop, conn, env, policy);
  else if (kind === 'CANCELLATION_REQUEST') result.cancellation_requests = await cancellationRequests(db, shop, conn, env);
  return result;
}
