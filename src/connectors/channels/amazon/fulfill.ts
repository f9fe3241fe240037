import { createHash } from 'node:crypto';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import type { OpenConnection, ShippedLine, TrackingInfo } from '../types.js';
import { spCall } from './client.js';
import type { AmazonCredentials } from './types.js';

// Tracking out (Orders API v0 confirmShipment: POST /orders/v0/orders/{orderId}/shipmentConfirmation
// with marketplaceId and packageDetail {packageReferenceId, carrierCode, carrierName, trackingNumber,
// shipDate, orderItems [{orderItemId, quantity}]}; 204 No Content) and stock out (Listings Items
// API 2021-08-01 patchListingsItem: fulfillment_availability's quantity, channel DEFAULT, the
// seller-fulfilled one).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = any;

/** Amazon's CarrierCode values for the carriers fos buys labels from; any other is "Other" with carrierName. */
const CARRIER_CODES: Record<string, string> = {
  ups: 'UPS',
  usps: 'USPS',
  fedex: 'FedEx',
  dhl: 'DHL',
  dhlexpress: 'DHL',
  dhlecommerce: 'DHL eCommerce',
  ontrac: 'OnTrac',
  royalmail: 'Royal Mail',
  canadapost: 'Canada Post',
  australiapost: 'Australia Post',
  auspost: 'Australia Post',
  dpd: 'DPD',
  gls: 'GLS',
  hermes: 'Hermes',
};

/** A package reference (positive digits, unique in the order) that is the same for the same tracking number. */
export const packageReference = (tracking: string) =>
  String((parseInt(createHash('sha256').update(tracking).digest('hex').slice(0, 12), 16) % 999_999_999) + 1);

async function alreadyShipped(conn: OpenConnection, env: ChannelEnv, id: string, lines: ShippedLine[]) {
  const { data } = await spCall<Json>(conn, env, 'GET', `orders/v0/orders/${encodeURIComponent(id)}/orderItems`);
  const shipped = new Map<string, number>(
    (data?.payload?.OrderItems ?? []).map((i: Json) => [String(i.OrderItemId), Number(i.QuantityShipped ?? 0)]),
  );
  return lines.every((l) => (shipped.get(l.remote_id) ?? 0) >= l.quantity);
}

export async function confirmShipment(
  conn: OpenConnection,
  env: ChannelEnv,
  order: { remote_id: string; order_number: string },
  lines: ShippedLine[],
  t: TrackingInfo,
): Promise<string> {
  const c = conn.credentials as AmazonCredentials;
  if (!t.number) throw new ChannelCallError('Amazon needs a tracking number to confirm a shipment', true);
  const shipped = lines.filter((l) => l.quantity > 0);
  if (!shipped.length) throw new ChannelCallError(`nothing shipped on Amazon order ${order.order_number}`, true);
  // Sent again after a lost answer: Amazon already counts these items shipped, nothing is confirmed twice.
  if (await alreadyShipped(conn, env, order.remote_id, shipped))
    return `Amazon already counts the items of ${order.order_number} shipped (an earlier answer was lost): nothing sent again`;
  const code = t.company ? CARRIER_CODES[t.company.toLowerCase().replace(/[^a-z]/g, '')] : undefined;
  const ref = packageReference(t.number);
  const packageDetail = {
    packageReferenceId: ref,
    carrierCode: code ?? 'Other',
    ...(code ? {} : { carrierName: t.company ?? 'Other' }),
    trackingNumber: t.number,
    shipDate: new Date().toISOString(),
    orderItems: shipped.map((l) => ({ orderItemId: l.remote_id, quantity: l.quantity })),
  };
  const path = `orders/v0/orders/${encodeURIComponent(order.remote_id)}/shipmentConfirmation`;
  await spCall(conn, env, 'POST', path, { body: { marketplaceId: c.marketplace_id, packageDetail } });
  return `Amazon shipment confirmed for ${order.order_number}: package ${ref}, ${packageDetail.carrierCode} ${t.number}`;
}

/** One SKU's seller-fulfilled quantity; Amazon's issues with an INVALID answer are the error. */
export async function patchQuantity(conn: OpenConnection, env: ChannelEnv, sku: string, productType: string | null, quantity: number) {
  const c = conn.credentials as AmazonCredentials;
  const body = {
    // The listing's product type from the listings sync; PRODUCT is Amazon's type for offer-only changes.
    productType: productType ?? 'PRODUCT',
    patches: [
      {
        op: 'replace',
        path: '/attributes/fulfillment_availability',
        value: [{ fulfillment_channel_code: 'DEFAULT', quantity: Math.max(0, quantity) }],
      },
    ],
  };
  const path = `listings/2021-08-01/items/${encodeURIComponent(c.seller_id ?? '')}/${encodeURIComponent(sku)}`;
  const { data } = await spCall<Json>(conn, env, 'PATCH', path, { query: { marketplaceIds: [c.marketplace_id] }, body });
  if (data?.status !== 'ACCEPTED') {
    const issues = (data?.issues ?? []).map((i: Json) => `${i.code}: ${i.message}`).join('; ');
    throw new ChannelCallError(
      `Amazon did not accept the quantity of ${sku} (${data?.status ?? 'no status'}${issues ? `: ${issues}` : ''})`,
      true,
    );
  }
}
