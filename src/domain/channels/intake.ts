import { dbNow } from '../clock.js';
import type { Db, Shop } from '../../db/types.js';
import { isUniqueViolation } from '../../db/client.js';
import { invalid } from '../errors.js';
import { normalizeAddress } from '../orders/index.js';
import { CURRENCY_CODES } from '../../contract/iso.js';
import { METADATA_KEYS, ORDER_CONFIG_DEFAULTS, type HoldReason, type OrderMetadata } from '../../contract/orders-enums.js';
import type { DraftPayload } from '../orders/index.js';
import { allocatePending } from '../orders/index.js';
import { planOrder, writeOrder, type SoldLine } from '../orders/index.js';
import { transaction } from '../../db/tx.js';
import { cancelFromChannel } from './cancel.js';
import { DEFAULT_SETTINGS } from './connection.js';
import { connectorOrNull } from '../../connectors/channels/registry.js';
import { applyShopEdit } from './edits.js';
import { verifyAfterConvert } from '../carrier-integrations/index.js';
import { currentScope, runOutsideDeadline, waitAtMost } from '../../net/deadlines.js';
import type { OutboundPolicy } from '../carrier-integrations/index.js';
import type { ChannelOrder, ConnectionSettings } from '../../connectors/channels/types.js';
import { findConnectionSettings } from './store/connections.js';
import {
  liftPaymentHolds,
  listingVariantsByRemoteIds,
  markOrderPaid,
  markOrderSynced,
  orderConfig,
  orderIdByRemote,
  orderStatus,
  productsForLines,
} from './store/intake.js';

// Channel order -> fos order, the one intake of webhooks, sync and replays. Idempotent by
// construction: an order is found by (shop, remote id), a unique index, so a second delivery,
// a sync of the same order or a concurrent delivery on another replica (whose insert loses on
// the index) updates instead of creating. An update never re-opens or duplicates work: it
// refreshes synced_at, marks a newly paid order paid (lifting AWAITING_PAYMENT), applies a
// cancellation, and applies the shop's edits of address and lines (edits.ts) or holds them for a
// person once packing started. An authorized (not captured) payment ships when the shop's
// ship_on_authorized setting says so, else waits on AWAITING_PAYMENT like an unpaid order.

export type IntakeAction = 'created' | 'updated' | 'cancelled' | 'unchanged' | 'ignored';

export async function matchLines(db: Db, shop: Shop, order: ChannelOrder): Promise<SoldLine[]> {
  const variantIds = order.lines.map((l) => l.remote_variant_id).filter((v): v is string => !!v);
  const listings = variantIds.length ? await listingVariantsByRemoteIds(db.prisma, shop.id, variantIds) : [];
  const listingOf = new Map(listings.map((l) => [l.remote_id!, l]));
  const skus = order.lines.filter((l) => l.sku).map((l) => l.sku!);
  const products = await productsForLines(
    db.prisma,
    shop.merchant_team_id,
    listings.map((l) => l.product_id),
    skus,
  );
  const byId = new Map(products.map((p) => [p.id, p]));
  const bySku = new Map<string, (typeof products)[number]>();
  for (const p of products) if (p.sku && !bySku.has(p.sku)) bySku.set(p.sku, p);
  return order.lines
    .filter((l) => l.quantity > 0)
    .map((l) => {
      const listing = l.remote_variant_id ? listingOf.get(l.remote_variant_id) : undefined;
      // By listing variant first, then by SKU.
      const product = (listing && byId.get(listing.product_id)) || (l.sku ? bySku.get(l.sku) : undefined) || null;
      return {
        product,
        sku: l.sku ?? product?.sku ?? null,
        name: l.name,
        quantity: l.quantity,
        price: l.price,
        applied_discount_amount: l.discount,
        remote_id: l.remote_id,
        product_listing_id: listing?.product_listing_id ?? null,
        product_listing_variant_id: listing?.id ?? null,
      };
    });
}

function payloadOf(shop: Shop, o: ChannelOrder): DraftPayload {
  const metadata = Object.fromEntries(METADATA_KEYS.map((k) => [k, []])) as unknown as OrderMetadata;
  metadata[connectorOrNull(shop.shop_type)?.metadataKey ?? 'custom'] = o.metadata;
  return {
    order_number: o.order_number,
    priority: 'NORMAL',
    payment_status: o.paid ? 'PAID' : 'PENDING',
    currency: o.currency,
    note: o.note,
    tags: [...new Set(o.tags)],
    shipping_method: o.shipping_method,
    deliver_by: null,
    shipping_address: normalizeAddress(o.shipping_address),
    billing_address: normalizeAddress(o.billing_address),
    customer: { email: o.email, name: o.customer_name, phone: o.phone },
    metadata,
    is_fragile: false,
    total_tax: o.total_tax,
    total_shipping: o.total_shipping,
    config: { ...ORDER_CONFIG_DEFAULTS },
  };
}

const CURRENCIES = new Set<string>(CURRENCY_CODES);

/** The shop's connection settings (defaults for a shop without a connection). */
async function settingsOf(db: Db, shopId: string): Promise<ConnectionSettings> {
  const row = await findConnectionSettings(db.prisma, shopId);
  return { ...DEFAULT_SETTINGS, ...(row?.settings as Partial<ConnectionSettings> | undefined) };
}

async function createFromChannel(db: Db, shop: Shop, o: ChannelOrder, shipAuthorized: boolean) {
  // Master data stays clean (issue 25): an order in a currency that is no ISO 4217 code is not
  // stored (the delivery or sync reports it); a country that is no ISO 3166-1 code fails the
  // address check below, so the order is held (ADDRESS_VERIFICATION_FAILED) until a person fixes it.
  if (!CURRENCIES.has(o.currency))
    throw invalid('currency', `order ${o.order_number} has currency ${JSON.stringify(o.currency)}, not an ISO 4217 code`);
  const lines = await matchLines(db, shop, o);
  const unmatched = lines.filter((l) => !l.product);
  const plan = planOrder(
    { merchant_team_id: shop.merchant_team_id, fulfiller_team_id: shop.fulfiller_team_id!, shop_id: shop.id },
    payloadOf(shop, o),
    lines,
  );
  const holds: { reason: HoldReason; notes: string }[] = [];
  if (unmatched.length) {
    holds.push({
      reason: 'UNMAPPED_ITEM' as const,
      notes: `No fos product for ${unmatched.map((l) => l.sku ?? l.name).join(', ')}: add the product (or its SKU) and release the hold.`,
    });
  }
  if (plan.verification && !plan.verification.verified) {
    holds.push({
      reason: 'ADDRESS_VERIFICATION_FAILED' as const,
      notes: plan.verification.errors.map((e) => e.message).join('; ') || 'The shipping address did not verify.',
    });
  }
  const written = await transaction(db, async (tx) => {
    return writeOrder(tx, plan, {
      extra: { remote_id: o.remote_id, synced_at: new Date() },
      holds,
      fallbackNumber: `${shop.slug}-${o.order_number.replace(/^#/, '')}`,
      event: { shop_id: shop.id, remote_id: o.remote_id },
      paymentHold: !(o.authorized && shipAuthorized),
      now: dbNow(db),
    });
  });
  await allocatePending(db, shop.fulfiller_team_id!).catch(() => undefined);
  return written.orderId;
}

async function updateFromChannel(db: Db, shop: Shop, orderId: string, o: ChannelOrder, policy: OutboundPolicy): Promise<IntakeAction> {
  if (o.cancelled) {
    const { status } = await orderStatus(db.prisma, orderId);
    if (status !== 'CANCELLED') {
      await cancelFromChannel(db, shop.fulfiller_team_id!, orderId); // its own transaction (it may void labels first)
      await markOrderSynced(db.prisma, orderId, new Date());
      return 'cancelled';
    }
  }
  const shipAuthorized = o.authorized && !o.paid && (await settingsOf(db, shop.id)).ship_on_authorized;
  const paying = await transaction(db, async (tx) => {
    // The write first (conventions: no read-then-upgrade on SQLite); it also locks the order row.
    const order = await markOrderSynced(tx, orderId, new Date());
    let action: IntakeAction = 'unchanged';
    if (shipAuthorized && order.payment_status === 'PENDING') {
      // Capture at fulfillment: the payment hold goes, the order stays PENDING until the shop says paid.
      const lifted = await liftPaymentHolds(tx, orderId);
      if (lifted.count) action = 'updated';
    }
    if (o.paid && order.payment_status === 'PENDING') {
      await markOrderPaid(tx, orderId);
      await liftPaymentHolds(tx, orderId);
      action = 'updated';
    }
    return action;
  });
  const edited = await applyShopEdit(db, shop, orderId, o, (x) => matchLines(db, shop, x), policy);
  return edited ? 'updated' : paying;
}

/** A new channel order's address goes through the team's EasyPost verification like a converted draft's. */
async function createAndVerify(db: Db, shop: Shop, o: ChannelOrder, policy: OutboundPolicy) {
  const id = await createFromChannel(db, shop, o, o.authorized && (await settingsOf(db, shop.id)).ship_on_authorized);
  const { config } = await orderConfig(db.prisma, id);
  // The check runs under its own 'verify' deadline, outside the webhook's: the delivery waits for
  // it only until the intake deadline (a timer of its own), then answers while it goes on in the
  // background and records its result (or its failure, logged) on the order when it ends.
  const { deadlineAt } = currentScope();
  const check = runOutsideDeadline(() => verifyAfterConvert(db, shop.fulfiller_team_id!, { id, config }, policy));
  if (deadlineAt === undefined) await check;
  else await waitAtMost(check, deadlineAt - Date.now());
  return id;
}

/** Takes one channel order in; returns what happened and the fos order id. */
export async function intakeOrder(
  db: Db,
  shop: Shop,
  o: ChannelOrder,
  policy: OutboundPolicy = {},
): Promise<{ action: IntakeAction; order_id: string | null }> {
  if (!shop.fulfiller_team_id) throw new Error(`shop ${shop.id} has no fulfiller team to receive its orders`);
  const find = () => orderIdByRemote(db.prisma, shop.id, o.remote_id);
  const existing = await find();
  if (existing) return { action: await updateFromChannel(db, shop, existing.id, o, policy), order_id: existing.id };
  if (o.cancelled) return { action: 'ignored', order_id: null }; // cancelled before fos ever saw it
  try {
    return { action: 'created', order_id: await createAndVerify(db, shop, o, policy) };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another delivery (or replica) created it first: this one is an update of that order.
    const now = await find();
    if (!now) throw err;
    return { action: await updateFromChannel(db, shop, now.id, o, policy), order_id: now.id };
  }
}
