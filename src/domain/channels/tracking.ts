import type { Db, ShopConnection } from '../../db/types.js';
import { ShopType } from '../../db/types.js';
import {
  NO_CONNECTOR,
  PermanentPushError,
  type SalesChannelAdapter,
  type SalesChannelAdapters,
  type TrackingPush,
} from '../events/index.js';
import { MAX_ATTEMPTS } from '../webhooks/index.js';
import { connectorFor, openConnection } from './connection.js';
import { connectedPlatforms } from '../../connectors/channels/registry.js';
import { isTestLabel } from '../carrier-integrations/index.js';
import { ChannelCallError, type ChannelEnv } from '../../connectors/channels/http.js';
import { findConnection, noteConnectionError } from './store/connections.js';
import { eventAttempts, labelOfTracking, openQuantity, orderRemote, savePush } from './store/pushes.js';

// Tracking out, for real: the 'tracking.push' event of a fulfill is sent to the shop's platform
// (Shopify fulfillmentCreate with trackingInfo and the shipped lines; WooCommerce an order note,
// then `completed` once every line has shipped). PUSHED is returned only when the platform
// answered success; a failure throws, so the outbox retries it with backoff, and the platform's
// message is kept on a channel_pushes row (shown on the order) and on the connection's health.
// A tracking.push with a shipment_status (a carrier's later scan) is a status update instead:
// Shopify fulfillmentEventCreate on the fulfillment with that tracking number, WooCommerce a note.

interface PushPayload {
  /** Set on a carrier's status update of an already shipped parcel (fulfillment/carrier-webhooks.ts). */
  shipment_status?: string;
  message?: string | null;
  occurred_at?: string | null;
  tracking?: { tracking_code?: string | null; tracking_url?: string | null; carrier?: string | null };
  fulfillment?: { line_items?: { remote_id: string | null; quantity: number }[] };
}

async function record(db: Db, push: TrackingPush, status: string, detail: string) {
  const ev = await eventAttempts(db.prisma, push.event_id);
  const data = { status, detail: detail.slice(0, 1000), attempts: ev?.attempts ?? 1 };
  await savePush(db.prisma, push.event_id, { order_id: push.order_id, shop_id: push.shop_id! }, data);
  return ev?.attempts ?? 1;
}

async function pushOne(db: Db, env: ChannelEnv, push: TrackingPush) {
  const row = push.shop_id ? await findConnection(db.prisma, push.shop_id) : null;
  if (!row || !row.active) {
    return { status: 'SKIPPED' as const, detail: `Shop ${push.shop_id} has no active ${push.shop_type} connection: nothing was sent.` };
  }
  const order = await orderRemote(db.prisma, push.order_id);
  if (!order.remote_id)
    return { status: 'SKIPPED' as const, detail: `Order ${order.order_number} did not come from ${push.shop_type}: nothing was sent.` };
  const p = push.payload as PushPayload;
  // A test label's made-up tracking number never reaches a shop (nor, through it, a customer).
  const code = p.tracking?.tracking_code;
  const label = code ? await labelOfTracking(db.prisma, code, push.team_id) : null;
  if (label && isTestLabel(label))
    return {
      status: 'SKIPPED' as const,
      detail: `The tracking number ${code} is from a TEST label (the rate-table carrier): it was not sent to ${push.shop_type}. Buy a real label to notify the shop.`,
    };
  if (p.shipment_status) return pushStatus(db, row, env, { remote_id: order.remote_id, order_number: order.order_number }, p);
  const lines = (p.fulfillment?.line_items ?? [])
    .filter((l) => l.remote_id)
    .map((l) => ({ remote_id: l.remote_id!, quantity: l.quantity }));
  const open = await openQuantity(db.prisma, push.order_id);
  const tracking = {
    number: p.tracking?.tracking_code ?? null,
    url: p.tracking?.tracking_url ?? null,
    company: p.tracking?.carrier ?? null,
  };
  const detail = await connectorFor(row.shop_type).fulfill(
    openConnection(row, db),
    env,
    { remote_id: order.remote_id, order_number: order.order_number },
    lines,
    tracking,
    (open._sum.remaining_quantity ?? 0) === 0,
  );
  return { status: 'PUSHED' as const, detail };
}

async function pushStatus(
  db: Db,
  row: ShopConnection,
  env: ChannelEnv,
  order: { remote_id: string; order_number: string },
  p: PushPayload,
) {
  const code = p.tracking?.tracking_code;
  const detail = code
    ? await connectorFor(row.shop_type).shipmentStatus(openConnection(row, db), env, order, {
        tracking_code: code,
        status: p.shipment_status!,
        message: p.message ?? null,
        occurred_at: p.occurred_at ?? null,
      })
    : null;
  if (detail) return { status: 'PUSHED' as const, detail };
  return { status: 'SKIPPED' as const, detail: `${row.shop_type} has no fulfillment of ${order.order_number} with tracking ${code}.` };
}

function platformAdapter(db: Db, env: ChannelEnv): SalesChannelAdapter {
  return {
    async pushTracking(push) {
      try {
        const outcome = await pushOne(db, env, push);
        if (push.shop_id) await record(db, push, outcome.status, outcome.detail);
        return outcome;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const permanent = err instanceof ChannelCallError && err.permanent;
        if (push.shop_id) {
          const attempts = await record(db, push, 'RETRYING', message);
          const final = permanent || attempts >= MAX_ATTEMPTS;
          if (final) await record(db, push, 'FAILED', message);
          await noteConnectionError(db.prisma, push.shop_id, `tracking push for order ${push.order_number}: ${message}`, new Date());
        }
        throw permanent ? new PermanentPushError(message) : err;
      }
    },
  };
}

/** A platform without a connector: FAILED at once, and said so on the order too. */
function unconnectedAdapter(db: Db): SalesChannelAdapter {
  return {
    async pushTracking(push) {
      const message = NO_CONNECTOR(push.shop_type);
      if (push.shop_id) await record(db, push, 'FAILED', message);
      throw new PermanentPushError(message);
    },
  };
}

/** The live adapters for the connected platforms, and the others' refusals (the outbox worker adds them to the defaults). */
export function channelAdapters(db: Db, env: ChannelEnv): SalesChannelAdapters {
  const adapters: SalesChannelAdapters = {};
  for (const type of Object.values(ShopType)) if (type !== 'MANUAL') adapters[type] = unconnectedAdapter(db);
  const adapter = platformAdapter(db, env);
  for (const type of connectedPlatforms()) adapters[type as ShopType] = adapter;
  return adapters;
}
