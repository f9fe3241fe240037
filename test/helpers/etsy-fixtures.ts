// Etsy payloads for the Etsy double and its tests (test/helpers/etsy-double.ts): a ShopReceipt with
// its transactions, and a listing's inventory (products, property values, offerings), in the
// shapes of Etsy's Open API v3 (Money as an integer amount over a divisor).

/** Etsy's Money. */
export const money = (v: number, currency = 'USD') => ({ amount: Math.round(v * 100), divisor: 100, currency_code: currency });

/** A property value of an inventory product (property 200: colour, 100: size). */
export const propertyValue = (value: string, valueId: number, propertyId = 200, name = 'Primary color') => ({
  property_id: propertyId,
  property_name: name,
  scale_id: null,
  value_ids: [valueId],
  values: [value],
});

/**
 * A ListingInventory: one product per entry (ids as given), one offering each; `onProperty` the
 * properties that price, quantity and SKU vary by (quantityShared: the quantity does not);
 * `readiness` each offering's processing profile, `readinessOnProperty` the properties it varies by.
 */
export function etsyInventory(
  products: { id: number; sku: string; quantity: number; price: number; values?: ReturnType<typeof propertyValue>[] }[],
  opts: { onProperty?: number[]; quantityShared?: boolean; readiness?: (productId: number) => number; readinessOnProperty?: number[] } = {},
) {
  const on = opts.onProperty ?? [];
  return {
    products: products.map((p) => ({
      product_id: p.id,
      sku: p.sku,
      is_deleted: false,
      property_values: p.values ?? [],
      offerings: [
        {
          offering_id: p.id * 10 + 1,
          quantity: p.quantity,
          is_enabled: true,
          is_deleted: false,
          price: money(p.price),
          // Processing profiles: the offering's readiness state (ready to ship / made to order).
          ...(opts.readiness ? { readiness_state_id: opts.readiness(p.id) } : {}),
        },
      ],
    })),
    price_on_property: on,
    quantity_on_property: opts.quantityShared ? [] : on,
    sku_on_property: on,
    ...(opts.readinessOnProperty ? { readiness_state_on_property: opts.readinessOnProperty } : {}),
  };
}

/** A paid, unshipped ShopReceipt: one transaction per line (transaction ids <receipt>01, <receipt>02 …), shipped to Austin, TX. */
export function etsyReceipt(
  id: number,
  lines: { listingId: number; sku: string; quantity: number; price?: number; variations?: { property_id: number; value_id: number }[] }[],
  opts: { modified?: Date; shipped?: boolean; status?: string; digital?: boolean } = {},
) {
  const updated = Math.floor((opts.modified ?? new Date()).getTime() / 1000);
  const subtotal = lines.reduce((s, l) => s + (l.price ?? 10) * l.quantity, 0);
  return {
    receipt_id: id,
    receipt_type: 0,
    seller_user_id: 77001,
    seller_email: 'seller@example.com',
    buyer_user_id: 88001,
    buyer_email: 'ada@example.com',
    name: 'Ada Lovelace',
    first_line: '1 Main St',
    second_line: 'Apt 2',
    city: 'Austin',
    state: 'TX',
    zip: '78751',
    status: opts.status ?? 'paid',
    formatted_address: 'Ada Lovelace\n1 Main St\nApt 2\nAustin, TX 78751\nUnited States',
    country_iso: 'US',
    payment_method: 'cc',
    message_from_buyer: 'gift wrap please',
    is_paid: true,
    is_shipped: opts.shipped ?? false,
    create_timestamp: 1_700_000_000 + id,
    created_timestamp: 1_700_000_000 + id,
    update_timestamp: updated,
    updated_timestamp: updated,
    is_gift: false,
    grandtotal: money(subtotal + 5),
    subtotal: money(subtotal),
    total_price: money(subtotal),
    total_shipping_cost: money(5),
    total_tax_cost: money(0.8),
    total_vat_cost: money(0),
    discount_amt: money(0),
    gift_wrap_price: money(0),
    shipments: [],
    transactions: lines.map((l, i) => ({
      transaction_id: id * 100 + i + 1,
      title: `Handmade ${l.sku}`,
      seller_user_id: 77001,
      buyer_user_id: 88001,
      quantity: l.quantity,
      receipt_id: id,
      is_digital: opts.digital ?? false,
      listing_id: l.listingId,
      transaction_type: 'listing',
      product_id: 100_000 + l.listingId,
      sku: l.sku,
      price: money(l.price ?? 10),
      shipping_cost: money(0),
      variations: (l.variations ?? []).map((v) => ({ ...v, formatted_name: 'Color', formatted_value: 'Blue' })),
      shipping_method: 'Standard Shipping',
    })),
    refunds: [],
  };
}
