import { money, text, type ChannelAddress, type ChannelOrder, type ChannelVariant } from '../types.js';

// eBay shapes -> fos's platform-neutral ones: a Sell Fulfillment API Order (getOrders) and a Sell
// Inventory API inventory item (getInventoryItems). The Inventory API keys an item by the seller's
// SKU, so a listing variant's remote id is its SKU, and an order line names the same SKU.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = Record<string, any>;

/** orderPaymentStatus values of an order that is paid (fully or with a partial refund). */
const PAID = ['PAID', 'PARTIALLY_REFUNDED'];

/** An ExtendedContact (shipTo, buyerRegistrationAddress) as an address. */
function address(c: Json | undefined): ChannelAddress | null {
  const a = c?.contactAddress;
  if (!a || !Object.values(a).some((v) => typeof v === 'string' && v)) return null;
  return {
    name: text(c?.fullName),
    company: text(c?.companyName),
    address1: text(a.addressLine1),
    address2: text(a.addressLine2),
    city: text(a.city),
    state: text(a.stateOrProvince),
    country: text(a.countryCode),
    zip: text(a.postalCode),
    phone: text(c?.primaryPhone?.phoneNumber),
  };
}

const amount = (a: Json | undefined) => money(a?.value);

function line(l: Json) {
  const quantity = Math.max(0, Math.round(money(l.quantity)));
  const cost = amount(l.lineItemCost); // unit price × quantity, before discounts
  const discounted = l.discountedLineItemCost ? amount(l.discountedLineItemCost) : cost;
  return {
    remote_id: String(l.lineItemId),
    remote_variant_id: text(l.sku),
    sku: text(l.sku),
    name: text(l.title) ?? 'Item',
    quantity,
    price: quantity ? Math.round((cost / quantity) * 100) / 100 : 0,
    discount: Math.max(0, Math.round((cost - discounted) * 100) / 100),
  };
}

/** A getOrders Order. Throws on a payload that is not an order. */
export function orderFromEbay(o: Json): ChannelOrder {
  if (!o || typeof o.orderId !== 'string' || !Array.isArray(o.lineItems))
    throw new Error('not an eBay order: orderId and lineItems are required');
  const step = (o.fulfillmentStartInstructions ?? []).find((f: Json) => f?.shippingStep)?.shippingStep;
  const shipTo = step?.shipTo;
  const buyer = o.buyer?.buyerRegistrationAddress;
  const p = o.pricingSummary ?? {};
  const payment = String(o.orderPaymentStatus ?? '');
  return {
    remote_id: o.orderId,
    order_number: o.orderId,
    updated_at: text(o.lastModifiedDate),
    cancelled: o.cancelStatus?.cancelState === 'CANCELED' || payment === 'FULLY_REFUNDED',
    paid: PAID.includes(payment),
    authorized: false,
    currency: text(p.total?.currency) ?? text(o.lineItems[0]?.lineItemCost?.currency) ?? 'USD',
    note: text(o.buyerCheckoutNotes),
    tags: [],
    email: text(shipTo?.email) ?? text(buyer?.email),
    customer_name: text(buyer?.fullName) ?? text(shipTo?.fullName),
    phone: text(shipTo?.primaryPhone?.phoneNumber) ?? text(buyer?.primaryPhone?.phoneNumber),
    shipping_address: address(shipTo),
    billing_address: address(buyer),
    shipping_method: text(step?.shippingServiceCode),
    total_tax: amount(p.tax),
    // Delivery cost before discounts, less the delivery discount (a negative amount).
    total_shipping: Math.max(0, amount(p.deliveryCost) + amount(p.deliveryDiscount)),
    metadata: [
      ...(text(o.buyer?.username) ? [{ key: 'ebay_buyer', value: String(o.buyer.username) }] : []),
      ...(text(o.salesRecordReference) ? [{ key: 'ebay_sales_record', value: String(o.salesRecordReference) }] : []),
      ...(text(o.lineItems[0]?.listingMarketplaceId)
        ? [{ key: 'ebay_marketplace', value: String(o.lineItems[0].listingMarketplaceId) }]
        : []),
    ],
    lines: o.lineItems.map(line),
  };
}

const UNITS: Record<string, string> = { POUND: 'LB', KILOGRAM: 'KG', OUNCE: 'OZ', GRAM: 'G' };

/** A getInventoryItems item: one listing variant, keyed by its SKU; its group (a multi-variation listing) is the listing. */
export function variantFromEbay(i: Json): ChannelVariant | null {
  const sku = text(i?.sku);
  if (!sku) return null;
  const p = i.product ?? {};
  const w = i.packageWeightAndSize?.weight;
  const first = (v: unknown) => (Array.isArray(v) ? text(v[0]) : null);
  return {
    remote_id: sku,
    remote_inventory_item_id: null,
    product_listing_id: text(i.groupIds?.[0]) ?? sku,
    product_listing_name: text(p.title),
    sku,
    barcode: first(p.upc) ?? first(p.ean) ?? first(p.isbn),
    name: text(p.title),
    image_url: first(p.imageUrls),
    // The price is the offer's (per marketplace), not the inventory item's.
    price: null,
    currency: null,
    hs_code: null,
    country_of_origin: null,
    weight: w && typeof w.value === 'number' ? w.value : null,
    weight_unit: w ? (UNITS[String(w.unit)] ?? null) : null,
  };
}
