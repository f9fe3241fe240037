import { text, type ChannelAddress, type ChannelLine, type ChannelOrder, type ChannelVariant } from '../types.js';

// Etsy shapes -> fos's platform-neutral ones: a ShopReceipt (getShopReceipts) with its
// transactions, and a listing's inventory products (getListingsByShop with includes=Inventory).
// A listing variant is an inventory product. Etsy gives a listing's products new product_ids when
// its inventory is written, so a variant's remote id is what does not change: the listing id and
// the product's property values ("<listing_id>:<property_id>=<value_id>,…", the listing id alone
// without variations). An order line (a transaction: listing_id and its variations' property and
// value ids) names the same key, and the stock push finds the product in the inventory by it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = Record<string, any>;

/** Etsy's Money: an integer amount over a divisor (1000 / 100 = 10.00). */
export const amountOf = (m: Json | undefined): number => {
  const amount = Number(m?.amount);
  const divisor = Number(m?.divisor) || 1;
  return Number.isFinite(amount) ? Math.round((amount / divisor) * 100) / 100 : 0;
};

/** Receipt statuses that end the order: nothing of it ships. */
const ENDED = ['canceled', 'fully refunded'];

const iso = (seconds: unknown) => (typeof seconds === 'number' && seconds > 0 ? new Date(seconds * 1000).toISOString() : null);

/** The receipt's shipping address (its own fields; Etsy leaves them out for apps without access in some regions). */
function address(r: Json): ChannelAddress | null {
  if (![r.first_line, r.city, r.zip, r.country_iso].some((v) => typeof v === 'string' && v)) return null;
  return {
    name: text(r.name),
    company: null,
    address1: text(r.first_line),
    address2: text(r.second_line),
    city: text(r.city),
    state: text(r.state),
    country: text(r.country_iso),
    zip: text(r.zip),
    phone: null,
  };
}

/** A variant's key: the listing and its property values, sorted (order-free). */
export const variantKey = (listingId: unknown, values: [unknown, unknown][]) => {
  const parts = values.filter(([p, v]) => p != null && v != null).map(([p, v]) => `${p}=${v}`);
  return parts.length ? `${listingId}:${parts.sort().join(',')}` : String(listingId);
};

/** An inventory product's key: each property with its value ids. */
export const productKey = (listingId: unknown, p: Json) =>
  variantKey(
    listingId,
    (Array.isArray(p?.property_values) ? p.property_values : []).map((v: Json) => [
      v.property_id,
      Array.isArray(v.value_ids) && v.value_ids.length ? v.value_ids.join('+') : null,
    ]),
  );

function line(t: Json): ChannelLine {
  // Personalization and other free-text entries carry no value id: they do not name a product.
  const values = (Array.isArray(t.variations) ? t.variations : []).map((v: Json) => [v.property_id, v.value_id] as [unknown, unknown]);
  return {
    remote_id: String(t.transaction_id),
    remote_variant_id: t.listing_id != null ? variantKey(t.listing_id, values) : null,
    sku: text(t.sku),
    name: text(t.title) ?? 'Item',
    quantity: Math.max(0, Math.round(Number(t.quantity) || 0)),
    // A transaction's price is the unit price.
    price: amountOf(t.price),
    discount: 0,
  };
}

/** The transactions fos ships: a digital download has nothing to pack. */
export const physical = (r: Json): Json[] => (Array.isArray(r?.transactions) ? r.transactions : []).filter((t: Json) => !t?.is_digital);

/** A ShopReceipt as an order (its physical transactions as lines). Throws on a payload that is not a receipt. */
export function orderFromEtsy(r: Json): ChannelOrder {
  if (!r || typeof r.receipt_id !== 'number' || !Array.isArray(r.transactions))
    throw new Error('not an Etsy receipt: receipt_id and transactions are required');
  const lines = physical(r);
  const status = String(r.status ?? '').toLowerCase();
  return {
    remote_id: String(r.receipt_id),
    order_number: String(r.receipt_id),
    updated_at: iso(r.updated_timestamp ?? r.update_timestamp),
    cancelled: ENDED.includes(status),
    paid: r.is_paid === true,
    authorized: false,
    currency: text(r.grandtotal?.currency_code) ?? text(r.total_price?.currency_code) ?? 'USD',
    note: text(r.message_from_buyer),
    tags: [],
    email: text(r.buyer_email),
    customer_name: text(r.name),
    phone: null,
    shipping_address: address(r),
    billing_address: null,
    shipping_method: text(lines[0]?.shipping_method) ?? text(lines[0]?.shipping_upgrade),
    // Sales tax and VAT Etsy collected on the receipt.
    total_tax: Math.round((amountOf(r.total_tax_cost) + amountOf(r.total_vat_cost)) * 100) / 100,
    total_shipping: amountOf(r.total_shipping_cost),
    metadata: [
      ...(r.buyer_user_id != null ? [{ key: 'etsy_buyer_user_id', value: String(r.buyer_user_id) }] : []),
      ...(r.is_gift ? [{ key: 'etsy_gift_message', value: text(r.gift_message) ?? '' }] : []),
      ...(text(r.payment_method) ? [{ key: 'etsy_payment_method', value: String(r.payment_method) }] : []),
    ],
    lines: lines.map(line),
  };
}

const UNITS: Record<string, string> = { oz: 'OZ', lb: 'LB', g: 'G', kg: 'KG' };

/** The property values of a product ("Blue / Large"), naming the variant within its listing. */
const variation = (p: Json) =>
  (Array.isArray(p.property_values) ? p.property_values : [])
    .flatMap((v: Json) => (Array.isArray(v.values) ? v.values : []))
    .filter((v: unknown) => typeof v === 'string' && v)
    .join(' / ');

/** One listing's variants: each inventory product not deleted. */
export function variantsFromEtsy(l: Json): ChannelVariant[] {
  const products: Json[] = Array.isArray(l?.inventory?.products) ? l.inventory.products : [];
  const image = Array.isArray(l.images) ? text(l.images[0]?.url_fullxfull) : null;
  return products
    .filter((p) => p && !p.is_deleted)
    .map((p) => {
      const offer = (Array.isArray(p.offerings) ? p.offerings : []).find((o: Json) => !o?.is_deleted);
      const named = variation(p);
      return {
        remote_id: productKey(l.listing_id, p),
        remote_inventory_item_id: null,
        product_listing_id: String(l.listing_id),
        product_listing_name: text(l.title),
        sku: text(p.sku),
        barcode: null,
        name: named ? `${text(l.title) ?? 'Listing'} (${named})` : text(l.title),
        image_url: image,
        price: offer?.price ? amountOf(offer.price) : null,
        currency: text(offer?.price?.currency_code),
        hs_code: null,
        country_of_origin: null,
        weight: typeof l.item_weight === 'number' && l.item_weight > 0 ? l.item_weight : null,
        weight_unit: UNITS[String(l.item_weight_unit)] ?? null,
      };
    });
}
