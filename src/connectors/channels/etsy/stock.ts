import { ChannelCallError, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import { etsyCall } from './client.js';
import { amountOf, productKey } from './map.js';
import { MAX_QUANTITY } from './types.js';

// Stock out (docs/sales-channels.md §3e): updateListingInventory replaces a listing's whole
// inventory (its products, their property values and offerings), so fos reads it first
// (getListingInventory) and sends it back as read, with only the quantities of the products it
// pushes changed (processing profiles too: each offering's readiness_state_id and the listing's
// readiness_state_on_property). A listing whose quantity does not vary by property (quantity_on_property empty)
// has one quantity for all its products: Etsy wants them equal, so they all get the smallest
// figure fos pushes for that listing.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = Record<string, any>;

const live = (list: unknown): Json[] => (Array.isArray(list) ? list : []).filter((x: Json) => x && !x.is_deleted);
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x) => Number.isInteger(x)) : []);

/** The PUT body: the inventory as read, each product's offerings with the quantity wanted (by variant key; or as they were). */
export function inventoryWithQuantities(listingId: string, inv: Json, wanted: Map<string, number>): Json {
  const products = live(inv?.products);
  const shared = ids(inv?.quantity_on_property).length === 0;
  const figures = products.map((p) => wanted.get(productKey(listingId, p))).filter((q): q is number => q !== undefined);
  const sharedQuantity = figures.length ? Math.min(...figures) : undefined;
  const quantityOf = (p: Json) => (shared ? sharedQuantity : wanted.get(productKey(listingId, p)));
  return {
    products: products.map((p) => ({
      sku: p.sku ?? '',
      property_values: (Array.isArray(p.property_values) ? p.property_values : []).map((v: Json) => ({
        property_id: v.property_id,
        value_ids: ids(v.value_ids),
        scale_id: v.scale_id ?? null,
        property_name: v.property_name,
        values: Array.isArray(v.values) ? v.values : [],
      })),
      offerings: live(p.offerings).map((o) => {
        const q = quantityOf(p);
        return {
          price: amountOf(o.price),
          quantity: q === undefined ? o.quantity : Math.min(Math.max(0, q), MAX_QUANTITY),
          is_enabled: o.is_enabled !== false,
          ...(o.readiness_state_id != null ? { readiness_state_id: o.readiness_state_id } : {}),
        };
      }),
    })),
    price_on_property: ids(inv?.price_on_property),
    quantity_on_property: ids(inv?.quantity_on_property),
    sku_on_property: ids(inv?.sku_on_property),
    // Processing profiles: the properties the readiness state varies by, as read (the PUT replaces it too).
    ...(Array.isArray(inv?.readiness_state_on_property) ? { readiness_state_on_property: ids(inv.readiness_state_on_property) } : {}),
  };
}

/** Absolute quantities by variant (map.ts variantKey), one read and one write per listing. */
export async function setEtsyStock(
  conn: OpenConnection,
  env: ChannelEnv,
  items: { remote_id: string; listing_id: string | null; quantity: number }[],
) {
  const byListing = new Map<string, Map<string, number>>();
  const refused: string[] = [];
  for (const i of items) {
    if (!i.listing_id) refused.push(`${i.remote_id}: no listing known (sync the shop's listings)`);
    else byListing.set(i.listing_id, (byListing.get(i.listing_id) ?? new Map()).set(i.remote_id, i.quantity));
  }
  for (const [listing, wanted] of byListing) {
    const path = `listings/${encodeURIComponent(listing)}/inventory`;
    const { data } = await etsyCall<Json>(conn, env, 'GET', path);
    const there = new Set(live(data?.products).map((p) => productKey(listing, p)));
    const gone = [...wanted.keys()].filter((id) => !there.has(id));
    for (const id of gone) {
      refused.push(`${id}: listing ${listing} has no such variation (changed on Etsy: sync the shop's listings)`);
      wanted.delete(id);
    }
    if (wanted.size) await etsyCall(conn, env, 'PUT', path, { json: inventoryWithQuantities(listing, data, wanted) });
  }
  if (refused.length) throw new ChannelCallError(`Etsy: no quantity set for ${refused.join('; ')}`, true);
}
