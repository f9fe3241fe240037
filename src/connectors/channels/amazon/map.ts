import { money, text, type ChannelAddress, type ChannelOrder, type ChannelVariant } from '../types.js';
import { regionCode } from '../bigcommerce/states.js';
import { CANCELLED_STATUSES, PAID_STATUSES } from './types.js';

// Orders API v0 and Listings Items API 2021-08-01 shapes -> fos's platform-neutral ones
// (models/orders-api-model/ordersV0.json, models/listings-items-api-model/listingsItems_2021-08-01.json).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = Record<string, any>;

/** An Orders API Address (getOrderAddress's, or getOrders' partial one without restricted data). */
export function addressFromAmazon(a: Json | null | undefined): ChannelAddress | null {
  if (!a || !Object.values(a).some((v) => typeof v === 'string' && v)) return null;
  const country = text(a.CountryCode);
  return {
    name: text(a.Name),
    company: text(a.CompanyName),
    address1: text(a.AddressLine1),
    address2: text([a.AddressLine2, a.AddressLine3].filter((x) => typeof x === 'string' && x.trim()).join(', ')),
    city: text(a.City),
    state: regionCode(country, text(a.StateOrRegion)),
    country,
    zip: text(a.PostalCode),
    phone: text(a.Phone),
  };
}

const amount = (m: Json | undefined) => money(m?.Amount);
const sum = (items: Json[], field: string) => items.reduce((s, i) => s + amount(i[field]), 0);

/** An order with its items and the address fos could read; `note` says why an address is missing. */
export function orderFromAmazon(o: Json, items: Json[], address: ChannelAddress | null, note: string | null): ChannelOrder {
  if (!o || typeof o.AmazonOrderId !== 'string' || !Array.isArray(items)) throw new Error('not an Amazon order: AmazonOrderId is required');
  const status = String(o.OrderStatus ?? '');
  const currency = text(o.OrderTotal?.CurrencyCode) ?? text(items.find((i) => i.ItemPrice)?.ItemPrice?.CurrencyCode) ?? 'USD';
  const buyer = o.BuyerInfo ?? o; // older answers carry BuyerEmail/BuyerName on the order itself
  const meta = (key: string, v: unknown) => (text(v) ? [{ key, value: String(v) }] : []);
  return {
    remote_id: o.AmazonOrderId,
    order_number: o.AmazonOrderId,
    updated_at: text(o.LastUpdateDate),
    cancelled: CANCELLED_STATUSES.includes(status),
    paid: PAID_STATUSES.includes(status),
    authorized: false,
    currency,
    note,
    tags: [...(o.IsPrime ? ['prime'] : []), ...(o.IsBusinessOrder ? ['business'] : [])],
    email: text(buyer.BuyerEmail),
    customer_name: text(buyer.BuyerName) ?? address?.name ?? null,
    phone: address?.phone ?? null,
    shipping_address: address,
    billing_address: null,
    shipping_method: text(o.ShipServiceLevel),
    total_tax: sum(items, 'ItemTax') + sum(items, 'ShippingTax'),
    total_shipping: sum(items, 'ShippingPrice') - sum(items, 'ShippingDiscount'),
    // Under metadata.custom (spec 2.6 names no Amazon key): what a packer or a person needs to see.
    metadata: [
      ...meta('amazon_marketplace_id', o.MarketplaceId),
      ...meta('amazon_order_status', o.OrderStatus),
      ...meta('amazon_latest_ship_date', o.LatestShipDate),
      ...meta('amazon_seller_order_id', o.SellerOrderId),
    ],
    lines: items.map((i) => {
      const qty = Math.max(0, Math.round(money(i.QuantityOrdered)));
      return {
        remote_id: String(i.OrderItemId),
        // The listing variant is the seller SKU (searchListingsItems' sku).
        remote_variant_id: text(i.SellerSKU),
        sku: text(i.SellerSKU),
        name: text(i.Title) ?? text(i.ASIN) ?? 'Item',
        quantity: qty,
        // ItemPrice is the price of the whole quantity (the model's note): fos keeps the unit price.
        price: qty ? amount(i.ItemPrice) / qty : 0,
        discount: amount(i.PromotionDiscount),
      };
    }),
  };
}

/** A listings item (includedData=summaries,offers) of the connection's marketplace. */
export function variantFromAmazon(item: Json, marketplaceId: string): ChannelVariant {
  const summary = (item.summaries ?? []).find((s: Json) => s.marketplaceId === marketplaceId) ?? item.summaries?.[0] ?? {};
  const offers: Json[] = (item.offers ?? []).filter((o: Json) => !o.marketplaceId || o.marketplaceId === marketplaceId);
  const offer = offers.find((o) => o.offerType === 'B2C') ?? offers[0];
  const price = offer?.price;
  return {
    remote_id: String(item.sku),
    // patchListingsItem needs the listing's product type: kept here for the stock pushes.
    remote_inventory_item_id: text(summary.productType),
    product_listing_id: text(summary.asin) ?? String(item.sku),
    product_listing_name: text(summary.itemName),
    sku: text(item.sku),
    barcode: null,
    name: text(summary.itemName),
    image_url: text(summary.mainImage?.link),
    price: price?.amount !== undefined ? money(price.amount) : null,
    currency: text(price?.currencyCode),
    hs_code: null,
    country_of_origin: null,
    weight: null,
    weight_unit: null,
  };
}
