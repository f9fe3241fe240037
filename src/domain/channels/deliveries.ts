import { transaction } from '../../db/tx.js';
import type { OutboundPolicy } from '../carrier-integrations/index.js';
import type { ChannelDelivery, Db, Shop } from '../../db/types.js';
import type { Principal } from '../keys/index.js';
import { DomainError, notFound } from '../errors.js';
import { SecretKeyError } from '../secrets/index.js';
import { connectorFor, connectorOrNull } from '../../connectors/channels/registry.js';
import { cancelFromChannel } from './cancel.js';
import { openConnection } from './connection.js';
import { intakeOrder } from './intake.js';
import { shopScope } from './shops.js';
import { findConnection, findConnectionOrThrow, noteWebhookReceived } from './store/connections.js';
import { claimDelivery, deliveriesPage, findDeliveryOfShop, insertDelivery, staleDeliveries, updateDelivery } from './store/deliveries.js';
import { orderByRemote } from './store/intake.js';
import { findShopOrThrow, shopIdInScope } from './store/shops.js';

// Platform webhooks at POST /v1/channels/{shop_id}/webhooks. No API key: a delivery is accepted
// only when the shop's connector verifies it with the shop's webhook secret (an HMAC of the raw
// body, or the secret header fos set when it registered the hook). An accepted body is
// stored first, then taken in; a payload fos does not understand is kept as FAILED with the
// reason (answered 2xx, so the platform does not disable the webhook) and can be replayed.
// A delivery stored by a process that died before taking it in stays RECEIVED: the channel
// worker takes those in (recoverDeliveries) once they are older than the stale window.

const refused = () => new DomainError('unauthorized', 'The webhook signature does not verify for this shop.');

/** The shop's connection when the body's platform signature verifies (null: WooCommerce's ping); 401 otherwise. */
async function verifiedConnection(db: Db, shopId: string, headers: Record<string, unknown>, body: Buffer) {
  const row = /^[0-9a-f-]{36}$/i.test(shopId) ? await findConnection(db.prisma, shopId) : null;
  const connector = row && connectorOrNull(row.shop_type);
  if (!row || !row.active || !connector) throw refused();
  // A platform's unsigned ping of a new webhook (WooCommerce disables webhooks whose ping fails): answered 200, nothing stored.
  if (connector.webhooks.isPing?.(headers, body)) return null;
  let secret: string | undefined;
  try {
    // A platform that sends no webhooks (Amazon) has no secret: every delivery is refused.
    secret = (openConnection(row).credentials as { webhook_secret?: string }).webhook_secret;
  } catch (err) {
    // The server's secret key is not the one the credentials were sealed with (a configuration
    // problem, not the sender's): 503, so the platform retries once it is fixed.
    if (err instanceof SecretKeyError)
      throw new DomainError('unavailable', `The credentials of shop ${shopId} cannot be opened: ${err.message}`);
    throw err;
  }
  if (!secret || !connector.webhooks.verify(secret, headers, body)) throw refused();
  return row;
}

/**
 * A platform's request notification (Shopify's fulfillment-service <callbackUrl>/fulfillment_order_notification),
 * verified like a webhook: the connector answers every pending request of its kind.
 */
export async function receiveFulfillmentNotification(
  db: Db,
  shopId: string,
  headers: Record<string, unknown>,
  body: Buffer,
  env: OutboundPolicy,
) {
  const row = await verifiedConnection(db, shopId, headers, body);
  const answer = row && connectorFor(row.shop_type).answerRequests;
  if (!row || !answer) throw refused();
  return answer(db, shopId, body, { allowPrivate: env.allowPrivate });
}

/** Verifies, stores and processes one delivery; throws 401 (nothing changed) when it does not verify. */
export async function receiveChannelWebhook(
  db: Db,
  shopId: string,
  headers: Record<string, unknown>,
  body: Buffer,
  policy: OutboundPolicy = {},
) {
  const row = await verifiedConnection(db, shopId, headers, body);
  if (!row) return { status: 'PING', delivery_id: null };
  const hooks = connectorFor(row.shop_type).webhooks;
  const topic = hooks.topic(headers, body) ?? '(none)';
  const now = new Date();
  const delivery = await transaction(db, async (tx) => {
    await noteWebhookReceived(tx, shopId, now);
    return insertDelivery(tx, {
      shop_id: shopId,
      topic,
      body: body.toString('utf8'),
      webhook_id: hooks.deliveryId(headers, body),
    });
  });
  // Test hook for the kill -9 test: the process dies with the delivery stored, not taken in.
  if (process.env.FOS_TEST_KILL_AFTER_DELIVERY_STORED === '1') process.kill(process.pid, 'SIGKILL');
  const done = await processDelivery(db, delivery, policy);
  return { status: done.status, delivery_id: delivery.id };
}

/** Takes a stored delivery in; the outcome (PROCESSED, IGNORED or FAILED with the reason) is written on it. */
export async function processDelivery(db: Db, delivery: ChannelDelivery, policy: OutboundPolicy = {}) {
  const shop = await findShopOrThrow(db.prisma, delivery.shop_id);
  let outcome: { status: string; error: string | null; order_id: string | null; remote_id: string | null };
  try {
    outcome = await handle(db, shop, delivery.topic, delivery.body, policy);
  } catch (err) {
    outcome = { status: 'FAILED', error: String((err as Error)?.message ?? err).slice(0, 500), order_id: null, remote_id: null };
  }
  return updateDelivery(db.prisma, delivery.id, {
    ...outcome,
    remote_id: outcome.remote_id ?? delivery.remote_id,
    attempts: { increment: 1 },
    processed_at: new Date(),
  });
}

/** How long a RECEIVED delivery may be in a live request's hands (FOS_DELIVERY_STALE_MS, default 2 minutes). */
export const staleMs = () => {
  const raw = process.env.FOS_DELIVERY_STALE_MS;
  const v = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(v) && v >= 0 ? v : 120_000;
};

/**
 * Takes in deliveries left RECEIVED (their process died between storing and processing). Each is
 * claimed by a compare-and-set on updated_at, which the claim moves, so one replica takes it and
 * another finds it claimed for the stale window; intake is idempotent besides.
 */
export async function recoverDeliveries(db: Db, policy: OutboundPolicy = {}, now = new Date(), limit = 20) {
  const stuck = await staleDeliveries(db.prisma, new Date(now.getTime() - staleMs()), limit);
  let taken = 0;
  for (const d of stuck) {
    // Stamped on the pass's clock (or later): another pass on that clock finds it fresh for the
    // stale window. Stamped with the wall clock, a pass with a later clock (FOS_NOW, the tests)
    // found the claim stale at once and took the delivery a second time.
    const claim = await claimDelivery(db.prisma, d.id, d.updated_at, new Date(Math.max(now.getTime(), Date.now())));
    if (claim.count !== 1) continue;
    await processDelivery(db, d, policy);
    taken++;
  }
  return taken;
}

async function handle(db: Db, shop: Shop, topic: string, raw: string, policy: OutboundPolicy) {
  const connector = connectorFor(shop.shop_type);
  const known = connector.webhooks.topics;
  if (!known.includes(topic))
    return { status: 'IGNORED', error: `topic ${topic} is not handled (fos takes ${known.join(', ')})`, order_id: null, remote_id: null };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new Error('the body is not JSON');
  }
  // A platform whose payloads only name the order reads it through the connection, opened on demand.
  const open = async () => openConnection(await findConnectionOrThrow(db.prisma, shop.id), db);
  const meaning = await connector.webhooks.interpret(topic, body, open, { allowPrivate: policy.allowPrivate });
  if (meaning.kind === 'ignore') return { status: 'IGNORED', error: meaning.reason, order_id: null, remote_id: meaning.remote_id };
  if (meaning.kind === 'cancel') {
    const id = meaning.remote_id;
    const order = await orderByRemote(db.prisma, shop.id, id);
    if (!order) return { status: 'IGNORED', error: `no fos order for ${connector.label} order ${id}`, order_id: null, remote_id: id };
    if (order.status !== 'CANCELLED') await cancelFromChannel(db, shop.fulfiller_team_id!, order.id);
    return { status: 'PROCESSED', error: null, order_id: order.id, remote_id: id };
  }
  const order = meaning.order;
  const r = await intakeOrder(db, shop, order, policy);
  return {
    status: r.action === 'ignored' ? 'IGNORED' : 'PROCESSED',
    error: r.action === 'ignored' ? 'cancelled before it reached fos' : null,
    order_id: r.order_id,
    remote_id: order.remote_id,
  };
}

export const deliveryView = (d: ChannelDelivery) => ({
  id: d.id,
  shop_id: d.shop_id,
  topic: d.topic,
  remote_id: d.remote_id,
  webhook_id: d.webhook_id,
  status: d.status,
  error: d.error,
  order_id: d.order_id,
  attempts: d.attempts,
  processed_at: d.processed_at,
  created_at: d.created_at,
  bytes: Buffer.byteLength(d.body),
});

export async function listDeliveries(db: Db, p: Principal, shopId: string, q: { status?: string; limit: number; page: number }) {
  const shop = await shopIdInScope(db.prisma, shopScope(p), shopId);
  if (!shop) throw notFound('Shop', shopId);
  const rows = await deliveriesPage(db.prisma, shopId, q.status, q.page * q.limit, q.limit + 1);
  const data = rows.slice(0, q.limit).map(deliveryView);
  return {
    data,
    meta: {
      page: q.page,
      page_size: q.limit,
      start_index: q.page * q.limit,
      end_index: q.page * q.limit + data.length,
      has_next_page: rows.length > q.limit,
      has_previous_page: q.page > 0,
    },
  };
}

/** Processes a stored delivery again (after fixing what made it fail); idempotent like every intake. */
export async function replayDelivery(db: Db, p: Principal, shopId: string, deliveryId: string, policy: OutboundPolicy = {}) {
  const shop = await shopIdInScope(db.prisma, shopScope(p), shopId);
  const delivery = shop ? await findDeliveryOfShop(db.prisma, shopId, deliveryId) : null;
  if (!delivery) throw notFound('Delivery', deliveryId);
  return deliveryView(await processDelivery(db, delivery, policy));
}
