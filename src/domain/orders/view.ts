import type { Db, Order, OrderFulfillmentHold, OrderLineItem } from '../../db/types.js';
import { teamNames } from '../names/index.js';
import { findShopNames } from './store/views.js';
import { ADDRESS_FIELDS } from './address.js';
import { CARRIER_SELECTION_FIELDS, METADATA_KEYS, ORDER_CONFIG_DEFAULTS } from '../../contract/orders-enums.js';
import type { RateStrategy } from '../../contract/rate-strategy.js';

// Response shapes of an order: Order 2.6 (get-one, priority update, convert, mark-paid) and the
// order-list projection. Team and shop names come from two batched queries, never per row.

export type OrderRow = Order & { holds: OrderFulfillmentHold[]; line_items?: OrderLineItem[] };

export interface Names {
  team: Map<string, string>;
  shop: Map<string, { name: string; slug: string; shop_type: string }>;
}

export async function loadNames(db: Db, orders: Pick<Order, 'shop_id' | 'merchant_team_id' | 'fulfiller_team_id'>[]): Promise<Names> {
  const shopIds = [...new Set(orders.map((o) => o.shop_id).filter((v): v is string => !!v))];
  const [team, shops] = await Promise.all([
    teamNames(
      db.prisma,
      orders.flatMap((o) => [o.merchant_team_id, o.fulfiller_team_id]),
    ),
    shopIds.length ? findShopNames(db.prisma, shopIds) : [],
  ]);
  return { team, shop: new Map(shops.map((s) => [s.id, s])) };
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const strOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

// The flat field names made once: a list page flattens an address per row.
const FLAT_KEYS = {
  shipping_address: ADDRESS_FIELDS.map((f) => [f, `shipping_address_${f}`] as const),
  billing_address: ADDRESS_FIELDS.map((f) => [f, `billing_address_${f}`] as const),
};

function flatAddress(prefix: 'shipping_address' | 'billing_address', json: unknown) {
  const a = obj(json);
  const out: Record<string, string | null> = {};
  for (const [f, key] of FLAT_KEYS[prefix]) out[key] = strOrNull(a[f]);
  return out;
}

const coreItem = (l: OrderLineItem) => ({
  id: l.id,
  order_id: l.order_id,
  product_id: l.product_id,
  core_draft_order_line_item_id: l.core_draft_order_line_item_id,
  sku: l.sku,
  name: l.name,
  image_url: l.image_url,
  unsynced_quantity: l.unsynced_quantity,
  remaining_quantity: l.remaining_quantity,
  total_quantity: l.total_quantity,
  removed_quantity: l.removed_quantity,
  synced_at: l.synced_at,
  created_at: l.created_at,
  updated_at: l.updated_at,
});

const originalItem = (l: OrderLineItem) => ({
  ...coreItem(l),
  original_draft_order_line_item_id: l.original_draft_order_line_item_id,
  shop_id: l.shop_id,
  product_listing_id: l.product_listing_id,
  product_listing_variant_id: l.product_listing_variant_id,
  remote_id: l.remote_id,
  applied_discount_amount: l.applied_discount_amount,
  price: l.price,
});

const holdView = (h: OrderFulfillmentHold) => ({
  id: h.id,
  order_id: h.order_id,
  active: h.active,
  reason: h.reason,
  reason_notes: h.reason_notes,
  created_by_user_id: h.created_by_user_id,
  created_at: h.created_at,
  updated_at: h.updated_at,
});

const byCreated = <T extends { created_at: Date; id: string }>(a: T, b: T) =>
  a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1);

/** Order 2.6. Line items and supported_actions only when `full` (get-one responses). */
export function orderView(o: OrderRow, names: Names, full: boolean) {
  const shop = o.shop_id ? names.shop.get(o.shop_id) : undefined;
  const metadata = obj(o.metadata);
  const carrier = obj(o.carrier_selection);
  const lines = [...(o.line_items ?? [])].sort(byCreated);
  return {
    id: o.id,
    order_number: o.order_number,
    remote_id: o.remote_id,
    synced_at: o.synced_at,
    created_at: o.created_at,
    updated_at: o.updated_at,
    closed_at: o.closed_at,
    cancelled_at: o.cancelled_at,
    cancel_reason: o.cancel_reason,
    merchant_team_id: o.merchant_team_id,
    merchant_team_name: names.team.get(o.merchant_team_id) ?? null,
    team_id: o.merchant_team_id,
    team_name: names.team.get(o.merchant_team_id) ?? null,
    fulfiller_team_id: o.fulfiller_team_id,
    fulfiller_team_name: names.team.get(o.fulfiller_team_id) ?? null,
    shop_id: o.shop_id,
    shop_name: shop?.name ?? null,
    shop_slug: shop?.slug ?? null,
    shop_type: shop?.shop_type ?? null,
    status: o.status,
    fulfillment_status: o.fulfillment_status,
    payment_status: o.payment_status,
    priority: o.priority,
    currency: o.currency,
    note: o.note,
    shipping_method: o.shipping_method,
    deliver_by: o.deliver_by,
    line_item_hash: o.line_item_hash,
    tags: Array.isArray(o.tags) ? (o.tags as string[]) : [],
    total_price: o.total_price,
    total_tax: o.total_tax,
    total_discount: o.total_discount,
    total_shipping: o.total_shipping,
    current_shipping: o.current_shipping,
    total_outstanding: o.total_outstanding,
    metadata: Object.fromEntries(METADATA_KEYS.map((k) => [k, Array.isArray(metadata[k]) ? metadata[k] : []])),
    ...flatAddress('shipping_address', o.shipping_address),
    shipping_latitude: o.shipping_latitude,
    shipping_longitude: o.shipping_longitude,
    ...flatAddress('billing_address', o.billing_address),
    customer_email: o.customer_email,
    customer_name: o.customer_name,
    customer_phone: o.customer_phone,
    ...Object.fromEntries(CARRIER_SELECTION_FIELDS.map((f) => [f, strOrNull(carrier[f])])),
    lock_address: o.lock_address,
    address_verified: o.address_verified,
    address_residential: o.address_residential,
    address_verified_at: o.address_verified_at,
    address_hash: o.address_hash,
    address_verification_response: o.address_verification_response ?? null,
    is_fragile: o.is_fragile,
    core_line_item_count: o.core_line_item_count,
    unique_core_line_item_count: o.unique_core_line_item_count,
    tracking_count: o.tracking_count,
    fulfillment_count: o.fulfillment_count,
    line_item_image_urls: Array.isArray(o.line_item_image_urls) ? (o.line_item_image_urls as string[]) : [],
    config: { ...ORDER_CONFIG_DEFAULTS, ...obj(o.config) },
    order_fulfillment_holds: [...o.holds].sort(byCreated).map(holdView),
    ...(full
      ? {
          // returned_quantity: an extension (issue 10) on core lines, the ones returns name.
          core_order_line_items: lines
            .filter((l) => l.kind === 'CORE')
            .map((l) => ({ ...coreItem(l), returned_quantity: l.returned_quantity })),
          original_order_line_items: lines.filter((l) => l.kind === 'ORIGINAL').map(originalItem),
          supported_actions: [{ action: 'VIEW_REMOTE_ORDER' }],
        }
      : {}),
  };
}

/** The order-list projection of 2.6, exactly. */
/**
 * The columns an order-list item is made of (plus the sort keys a cursor is built from): a list
 * page reads only these, not the order's whole row (metadata, addresses it does not show, search
 * text), which halves what the driver and Prisma convert per row.
 */
export const ORDER_LIST_SELECT = {
  id: true,
  created_at: true,
  updated_at: true,
  closed_at: true,
  cancelled_at: true,
  merchant_team_id: true,
  fulfiller_team_id: true,
  shop_id: true,
  fulfillment_status: true,
  payment_status: true,
  priority: true,
  order_number: true,
  currency: true,
  note: true,
  shipping_method: true,
  tags: true,
  total_price: true,
  customer_email: true,
  customer_name: true,
  customer_phone: true,
  shipping_address: true,
  address_verified: true,
  address_residential: true,
  core_line_item_count: true,
  unique_core_line_item_count: true,
  fulfillment_count: true,
  line_item_image_urls: true,
  status: true,
  order_number_class: true,
  order_sort_key: true,
} as const satisfies Partial<Record<keyof Order, true>>;

export type OrderListRow = Pick<Order, keyof typeof ORDER_LIST_SELECT>;

export function orderListItem(o: OrderListRow, names: Names) {
  const shop = o.shop_id ? names.shop.get(o.shop_id) : undefined;
  const ship = flatAddress('shipping_address', o.shipping_address);
  return {
    id: o.id,
    created_at: o.created_at,
    closed_at: o.closed_at,
    cancelled_at: o.cancelled_at,
    merchant_team_name: names.team.get(o.merchant_team_id) ?? null,
    shop_name: shop?.name ?? null,
    shop_type: shop?.shop_type ?? null,
    fulfillment_status: o.fulfillment_status,
    payment_status: o.payment_status,
    priority: o.priority,
    order_number: o.order_number,
    currency: o.currency,
    note: o.note,
    shipping_method: o.shipping_method,
    tags: Array.isArray(o.tags) ? (o.tags as string[]) : [],
    total_price: o.total_price,
    customer_email: o.customer_email,
    customer_name: o.customer_name,
    customer_phone: o.customer_phone,
    shipping_address_company: ship.shipping_address_company,
    shipping_address_address1: ship.shipping_address_address1,
    shipping_address_address2: ship.shipping_address_address2,
    shipping_address_city: ship.shipping_address_city,
    shipping_address_state: ship.shipping_address_state,
    shipping_address_country: ship.shipping_address_country,
    shipping_address_zip: ship.shipping_address_zip,
    address_verified: o.address_verified,
    address_residential: o.address_residential,
    core_line_item_count: o.core_line_item_count,
    unique_core_line_item_count: o.unique_core_line_item_count,
    fulfillment_count: o.fulfillment_count,
    line_item_image_urls: Array.isArray(o.line_item_image_urls) ? (o.line_item_image_urls as string[]) : [],
    status: o.status,
  };
}

/** Extensions of the get-one order (docs/automation.md), present only when there is something to show. */
export function automationView(o: { automation_trace: unknown; carrier_selection: unknown }) {
  const sel = obj(o.carrier_selection);
  const person = Array.isArray(sel.person_set) ? (sel.person_set as string[]) : [];
  return {
    ...(o.automation_trace ? { automation_trace: o.automation_trace as never } : {}),
    ...(typeof sel.rate_strategy === 'string' ? { rate_strategy: sel.rate_strategy as RateStrategy } : {}),
    ...(typeof sel.rate_within_days === 'number' ? { rate_within_days: sel.rate_within_days } : {}),
    ...(Array.isArray(sel.rate_exclude_carrier_ids) ? { rate_exclude_carrier_ids: sel.rate_exclude_carrier_ids as string[] } : {}),
    ...(person.length ? { carrier_selection_set_by_person: person } : {}),
  };
}
