import type { Db, OutboxEvent } from '../../db/types.js';
import { ShopType } from '../../db/types.js';
import { findPushOrder, findShopType } from './store.js';

// Sales-channel adapters receive 'tracking.push' events: after a fulfill the storefront that sold
// the order is told the tracking number. MANUAL orders have nothing to push (SKIPPED). Every
// other platform's shops are pushed to for real by src/domain/channels/tracking.ts (through its
// connector), which the outbox worker adds; without those adapters (a worker set up with the
// defaults only) a platform has no connector and says so (FAILED, not retried).

export type ShopTypeName = (typeof ShopType)[keyof typeof ShopType];

export interface TrackingPush {
  event_id: string;
  team_id: string;
  order_id: string;
  order_number: string;
  shop_id: string | null;
  shop_type: ShopTypeName;
  /** The event payload as enqueued (tracking_code, tracking_url, package_id, …). */
  payload: Record<string, unknown>;
}

export interface PushOutcome {
  status: 'PUSHED' | 'SKIPPED';
  detail: string;
}

export interface SalesChannelAdapter {
  /** Throw to have the push retried with backoff; throw PermanentPushError to give up at once. */
  pushTracking(push: TrackingPush): Promise<PushOutcome>;
}

export type SalesChannelAdapters = Partial<Record<ShopTypeName, SalesChannelAdapter>>;

export class PermanentPushError extends Error {
  override name = 'PermanentPushError';
}

const manualAdapter: SalesChannelAdapter = {
  async pushTracking() {
    return { status: 'SKIPPED', detail: 'MANUAL order: no sales channel to update.' };
  },
};

export const NO_CONNECTOR = (shopType: string) => `no connector for ${shopType} yet: tracking was not sent to the sales channel.`;

const noConnector: SalesChannelAdapter = {
  async pushTracking(push) {
    throw new PermanentPushError(NO_CONNECTOR(push.shop_type));
  },
};

export const defaultSalesChannelAdapters = (): SalesChannelAdapters => {
  const adapters: SalesChannelAdapters = {};
  for (const type of Object.values(ShopType)) adapters[type] = type === 'MANUAL' ? manualAdapter : noConnector;
  return adapters;
};

/** Resolves the order and shop of a 'tracking.push' event and hands it to the platform's adapter. */
export async function pushTracking(db: Db, event: OutboxEvent, adapters: SalesChannelAdapters) {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const target = targetOf(payload) ?? (await targetRead(db, payload));
  const adapter = adapters[target.shop_type] ?? defaultSalesChannelAdapters()[target.shop_type]!;
  const outcome = await adapter.pushTracking({ event_id: event.id, team_id: event.team_id, ...target, payload });
  return { ...outcome, order_id: target.order_id, shop_id: target.shop_id, shop_type: target.shop_type };
}

type PushTarget = Pick<TrackingPush, 'order_id' | 'order_number' | 'shop_id' | 'shop_type'>;

/**
 * The order and shop as the fulfill transaction wrote them into the payload ({ order: { id,
 * order_number }, shop: { id, shop_type } | null }): neither changes after the order is placed, so
 * the worker reads nothing per push (two reads a fulfillment less). Null for a payload without them.
 */
function targetOf(payload: Record<string, unknown>): PushTarget | null {
  const order = payload.order as { id?: unknown; order_number?: unknown } | undefined;
  const shop = payload.shop as { id?: unknown; shop_type?: unknown } | null | undefined;
  if (typeof order?.id !== 'string' || typeof order.order_number !== 'string' || shop === undefined) return null;
  if (shop !== null && (typeof shop.id !== 'string' || !Object.values(ShopType).includes(shop.shop_type as ShopTypeName))) return null;
  return {
    order_id: order.id,
    order_number: order.order_number,
    shop_id: shop ? (shop.id as string) : null,
    shop_type: shop ? (shop.shop_type as ShopTypeName) : 'MANUAL',
  };
}

/** The order and shop read by the payload's order_id (or order.id). */
async function targetRead(db: Db, payload: Record<string, unknown>): Promise<PushTarget> {
  // The fulfill transaction nests the order ({ order: { id, … } }); a flat order_id works too.
  const nested = payload.order && typeof payload.order === 'object' ? (payload.order as { id?: unknown }).id : undefined;
  const orderId = typeof payload.order_id === 'string' ? payload.order_id : typeof nested === 'string' ? nested : null;
  if (!orderId) throw new PermanentPushError('tracking.push payload has neither order_id nor order.id.');
  const order = await findPushOrder(db.prisma, orderId);
  if (!order) throw new PermanentPushError(`Order ${orderId} of a tracking push does not exist.`);
  const shop = order.shop_id ? await findShopType(db.prisma, order.shop_id) : null;
  return { order_id: order.id, order_number: order.order_number, shop_id: order.shop_id, shop_type: shop?.shop_type ?? 'MANUAL' };
}
