import { money, text, type ChannelAddress, type ChannelOrder, type ChannelVariant } from '../types.js';

// Shopify order shapes -> ChannelOrder: the webhook payload (REST JSON, snake_case, ids as
// numbers) and the GraphQL Admin `orders` node (camelCase, gids). Both keep the GraphQL gid as
// remote_id, so an order first seen by webhook and later by sync is the same order.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = Record<string, any>;

export const orderGid = (id: unknown) => (String(id).startsWith('gid://') ? String(id) : `gid://shopify/Order/${id}`);
const gid = (kind: string, id: unknown) =>
  id === null || id === undefined ? null : String(id).startsWith('gid://') ? String(id) : `gid://shopify/${kind}/${id}`;

/** The REST and GraphQL addresses differ only in the code fields' names and REST's split name. */
function address(a: Json, name: string | null, codes: { state: string; country: string }): ChannelAddress {
  return {
    name,
    company: text(a.company),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    state: text(a[codes.state]) ?? text(a.province),
    country: text(a[codes.country]) ?? text(a.country),
    zip: text(a.zip),
    phone: text(a.phone),
  };
}

const restAddress = (a: Json | null | undefined) =>
  a
    ? address(a, text(a.name) ?? text([a.first_name, a.last_name].filter(Boolean).join(' ')), {
        state: 'province_code',
        country: 'country_code',
      })
    : null;

const gqlAddress = (a: Json | null | undefined) =>
  a ? address(a, text(a.name), { state: 'provinceCode', country: 'countryCodeV2' }) : null;

const PAID = ['paid', 'partially_refunded', 'refunded'];

/** An orders/create|updated|cancelled webhook body. Throws on a payload that is not an order. */
export function orderFromWebhook(o: Json): ChannelOrder {
  if (!o || (typeof o.id !== 'number' && typeof o.id !== 'string') || !Array.isArray(o.line_items)) {
    throw new Error('not a Shopify order: id and line_items are required');
  }
  const c = o.customer ?? {};
  return {
    remote_id: orderGid(o.admin_graphql_api_id ?? o.id),
    order_number: text(o.name) ?? `#${o.order_number ?? o.id}`,
    updated_at: text(o.updated_at),
    cancelled: !!o.cancelled_at,
    paid: PAID.includes(String(o.financial_status ?? '').toLowerCase()),
    authorized: String(o.financial_status ?? '').toLowerCase() === 'authorized',
    currency: text(o.currency) ?? 'USD',
    note: text(o.note),
    tags: String(o.tags ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    email: text(o.email) ?? text(c.email),
    customer_name: text([c.first_name, c.last_name].filter(Boolean).join(' ')) ?? text(o.shipping_address?.name),
    phone: text(o.phone) ?? text(c.phone),
    shipping_address: restAddress(o.shipping_address),
    billing_address: restAddress(o.billing_address),
    shipping_method: text(o.shipping_lines?.[0]?.title),
    total_tax: money(o.total_tax),
    total_shipping: money(
      o.total_shipping_price_set?.shop_money?.amount ?? o.shipping_lines?.reduce((s: number, l: Json) => s + money(l.price), 0),
    ),
    metadata: (o.note_attributes ?? []).map((a: Json) => ({ key: String(a.name), value: String(a.value ?? '') })),
    lines: o.line_items.map((l: Json) => ({
      remote_id: gid('LineItem', l.admin_graphql_api_id ?? l.id)!,
      remote_variant_id: gid('ProductVariant', l.variant_id),
      sku: text(l.sku),
      name: text(l.name) ?? text(l.title) ?? 'Item',
      // current_quantity (REST 2024-01+): after order edits and removals; quantity is as first ordered.
      quantity: Math.max(0, Math.round(money(l.current_quantity ?? l.quantity))),
      price: money(l.price),
      discount: money(l.total_discount),
    })),
  };
}

/** A node of the GraphQL Admin `orders` query (ORDER_FIELDS in shopify.ts). */
export function orderFromGraphql(o: Json): ChannelOrder {
  const c = o.customer ?? {};
  return {
    remote_id: String(o.id),
    order_number: text(o.name) ?? String(o.id),
    updated_at: text(o.updatedAt),
    cancelled: !!o.cancelledAt,
    paid: ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(String(o.displayFinancialStatus)),
    authorized: String(o.displayFinancialStatus) === 'AUTHORIZED',
    currency: text(o.currencyCode) ?? 'USD',
    note: text(o.note),
    tags: Array.isArray(o.tags) ? o.tags.map(String) : [],
    email: text(o.email) ?? text(c.email),
    customer_name: text(c.displayName) ?? text(o.shippingAddress?.name),
    phone: text(o.phone) ?? text(c.phone),
    shipping_address: gqlAddress(o.shippingAddress),
    billing_address: gqlAddress(o.billingAddress),
    shipping_method: text(o.shippingLine?.title),
    total_tax: money(o.totalTaxSet?.shopMoney?.amount),
    total_shipping: money(o.totalShippingPriceSet?.shopMoney?.amount),
    metadata: (o.customAttributes ?? []).map((a: Json) => ({ key: String(a.key), value: String(a.value ?? '') })),
    lines: (o.lineItems?.nodes ?? []).map((l: Json) => ({
      remote_id: String(l.id),
      remote_variant_id: l.variant?.id ? String(l.variant.id) : null,
      sku: text(l.sku),
      name: text(l.name) ?? 'Item',
      quantity: Math.max(0, Math.round(money(l.currentQuantity ?? l.quantity))),
      price: money(l.originalUnitPriceSet?.shopMoney?.amount),
      discount: money(l.totalDiscountSet?.shopMoney?.amount),
    })),
  };
}

/** A node of the `productVariants` query (VARIANT_FIELDS in shopify.ts). */
export function variantFromGraphql(v: Json, currency: string | null): ChannelVariant {
  const weight = v.inventoryItem?.measurement?.weight;
  return {
    remote_id: String(v.id),
    remote_inventory_item_id: v.inventoryItem?.id ? String(v.inventoryItem.id) : null,
    product_listing_id: String(v.product?.id ?? v.id),
    product_listing_name: text(v.product?.title),
    sku: text(v.sku),
    barcode: text(v.barcode),
    name: text(v.displayName) ?? text(v.title),
    image_url: text(v.image?.url) ?? text(v.product?.featuredImage?.url),
    price: v.price === undefined || v.price === null ? null : money(v.price),
    currency,
    hs_code: text(v.inventoryItem?.harmonizedSystemCode),
    country_of_origin: text(v.inventoryItem?.countryCodeOfOrigin),
    weight: weight?.value === undefined ? null : money(weight.value),
    weight_unit: weight?.unit === 'POUNDS' ? 'LB' : weight?.unit === 'GRAMS' ? 'G' : text(weight?.unit),
  };
}
