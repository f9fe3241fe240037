import { money, text, type ChannelAddress, type ChannelOrder, type ChannelVariant } from '../types.js';
import { regionCode } from './states.js';
import { STATUS } from './types.js';

// BigCommerce shapes -> fos's platform-neutral ones. A V2 order names its products and shipping
// addresses as sub-resources (products.url, shipping_addresses.url): the caller reads them.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = Record<string, any>;

const CANCELLED: number[] = [STATUS.CANCELLED, STATUS.REFUNDED, STATUS.DECLINED];
const PAID: number[] = [
  STATUS.SHIPPED,
  STATUS.PARTIALLY_SHIPPED,
  STATUS.AWAITING_PICKUP,
  STATUS.AWAITING_SHIPMENT,
  STATUS.COMPLETED,
  STATUS.AWAITING_FULFILLMENT,
  STATUS.PARTIALLY_REFUNDED,
];

function address(a: Json | undefined): ChannelAddress | null {
  if (!a || !Object.values(a).some((v) => typeof v === 'string' && v)) return null;
  const country = text(a.country_iso2) ?? text(a.country);
  return {
    name: text([a.first_name, a.last_name].filter(Boolean).join(' ')),
    company: text(a.company),
    address1: text(a.street_1),
    address2: text(a.street_2),
    city: text(a.city),
    state: regionCode(country, text(a.state)),
    country,
    zip: text(a.zip),
    phone: text(a.phone),
  };
}

const iso = (v: unknown) => {
  const d = typeof v === 'string' && v ? new Date(v) : null; // V2 dates are RFC 2822
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
};

/** A V2 order with its products and shipping addresses. Throws on a payload that is not an order. */
export function orderFromBigCommerce(o: Json, products: Json[], shipping: Json[]): ChannelOrder {
  if (!o || typeof o.id !== 'number' || !Array.isArray(products)) throw new Error('not a BigCommerce order: id and products are required');
  const b = o.billing_address ?? {};
  const ship = shipping[0];
  const status = Number(o.status_id);
  const authorized = String(o.payment_status ?? '').toLowerCase() === 'authorized';
  return {
    remote_id: String(o.id),
    order_number: `#${o.id}`,
    updated_at: iso(o.date_modified),
    cancelled: CANCELLED.includes(status),
    paid: PAID.includes(status) && !authorized,
    authorized,
    currency: text(o.currency_code) ?? text(o.default_currency_code) ?? 'USD',
    note: text(o.customer_message),
    tags: [],
    email: text(b.email) ?? text(ship?.email),
    customer_name: text([b.first_name, b.last_name].filter(Boolean).join(' ')),
    phone: text(b.phone),
    shipping_address: address(ship) ?? address(b),
    billing_address: address(b),
    shipping_method: text(ship?.shipping_method),
    total_tax: money(o.total_tax),
    total_shipping: money(o.shipping_cost_ex_tax),
    metadata: [
      ...(text(o.staff_notes) ? [{ key: 'staff_notes', value: String(o.staff_notes) }] : []),
      ...(text(o.channel_id) ? [{ key: 'channel_id', value: String(o.channel_id) }] : []),
    ],
    lines: products.map((p) => ({
      remote_id: String(p.id),
      remote_variant_id: p.variant_id ? String(p.variant_id) : null,
      sku: text(p.sku),
      name: text(p.name) ?? 'Item',
      quantity: Math.max(0, Math.round(money(p.quantity) - money(p.quantity_refunded))),
      price: money(p.price_ex_tax ?? p.base_price),
      discount: (Array.isArray(p.applied_discounts) ? p.applied_discounts : []).reduce((s: number, d: Json) => s + money(d.amount), 0),
    })),
  };
}

const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : money(v));

/** A V3 catalog variant of a product (include=variants): one listing variant. */
export function variantFromBigCommerce(p: Json, v: Json, currency: string | null): ChannelVariant {
  const options = (v.option_values ?? []).map((o: Json) => o.label).filter(Boolean);
  return {
    remote_id: String(v.id),
    remote_inventory_item_id: null,
    product_listing_id: String(p.id),
    product_listing_name: text(p.name),
    sku: text(v.sku) ?? text(p.sku),
    barcode: text(v.upc) ?? text(v.gtin),
    name: text([p.name, ...options].join(' - ')),
    image_url: text(v.image_url) ?? text(p.images?.[0]?.url_standard),
    price: num(v.price ?? v.calculated_price ?? p.price),
    currency,
    hs_code: null,
    country_of_origin: null,
    weight: num(v.weight ?? v.calculated_weight ?? p.weight),
    weight_unit: null,
  };
}
