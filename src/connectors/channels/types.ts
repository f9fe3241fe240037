import type { BigCommerceCredentials } from './bigcommerce/types.js';
import type { AmazonCredentials } from './amazon/types.js';
import type { EbayCredentials } from './ebay/types.js';
import type { EtsyCredentials } from './etsy/types.js';

// The platform-neutral shapes the connectors (src/connectors/channels/<platform>/) translate to and from
// (docs/sales-channels.md). Intake, sync and the tracking/stock pushes only see these.

export type ConnectedPlatform = 'SHOPIFY' | 'WOOCOMMERCE' | 'BIGCOMMERCE' | 'AMAZON' | 'EBAY' | 'ETSY';

export interface ChannelAddress {
  name: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  zip: string | null;
  phone: string | null;
}

export interface ChannelLine {
  remote_id: string;
  /** The listing variant on the platform (Shopify variant id, WooCommerce variation or product id). */
  remote_variant_id: string | null;
  sku: string | null;
  name: string;
  quantity: number;
  price: number;
  discount: number;
}

export interface ChannelOrder {
  remote_id: string;
  order_number: string;
  updated_at: string | null;
  cancelled: boolean;
  paid: boolean;
  /** Payment authorized, not yet captured (Shopify `authorized`: capture at fulfillment). */
  authorized: boolean;
  currency: string;
  note: string | null;
  tags: string[];
  email: string | null;
  customer_name: string | null;
  phone: string | null;
  shipping_address: ChannelAddress | null;
  billing_address: ChannelAddress | null;
  shipping_method: string | null;
  total_tax: number;
  total_shipping: number;
  /** Platform metadata, spec 2.6 metadata.<platform>. */
  metadata: { key: string; value: string }[];
  lines: ChannelLine[];
}

/** A variant a shop sells, for product_listing_variants (spec 2.3). */
export interface ChannelVariant {
  remote_id: string;
  remote_inventory_item_id: string | null;
  product_listing_id: string;
  product_listing_name: string | null;
  sku: string | null;
  barcode: string | null;
  name: string | null;
  image_url: string | null;
  price: number | null;
  currency: string | null;
  hs_code: string | null;
  country_of_origin: string | null;
  weight: number | null;
  weight_unit: string | null;
}

/** Credentials and settings of a connection, as opened from the sealed column. */
export interface ShopifyCredentials {
  /** The legacy custom app's token (shpat_…), an OAuth offline token, or the cached client-credentials token. */
  access_token?: string | null;
  webhook_secret: string;
  /** Dev Dashboard app of the shop's own organisation: the client-credentials grant. */
  client_id?: string | null;
  client_secret?: string | null;
  /** When the cached client-credentials token expires (ISO). */
  token_expires_at?: string | null;
  /** The scopes Shopify granted with the last token. */
  scope?: string | null;
}
export interface WooCredentials {
  consumer_key: string;
  consumer_secret: string;
  webhook_secret: string;
}
export type Credentials =
  ShopifyCredentials | WooCredentials | BigCommerceCredentials | AmazonCredentials | EbayCredentials | EtsyCredentials;

export interface ConnectionSettings {
  /** Shopify: notifyCustomer on fulfillmentCreate. WooCommerce: the tracking note is a customer note. */
  notify_customer: boolean;
  /** Shopify location (gid) whose available quantity fos sets. */
  location_id: string | null;
  /** The fos warehouse whose available figure is pushed; null = all warehouses of the fulfiller. */
  warehouse_id: string | null;
  /** Shopify fulfillment-service mode: the service fos registered and its location (fulfillment-service.ts). */
  fulfillment_service?: { id: string; location_id: string; callback_url: string } | null;
  /** An order whose payment is only authorized ships (true) or waits on AWAITING_PAYMENT (false, the default). */
  ship_on_authorized: boolean;
  /** WooCommerce: the Shipment Tracking extension is active (detected at connect and check); tracking goes there, not in a note. */
  shipment_tracking: boolean;
  /** BigCommerce: the store/order/* hook fos registered at connect. */
  webhook_id?: string | null;
  /** A shop connected by the 3PL's platform app (BigCommerce single-click app): where its install stands. */
  app_install?: AppInstall | null;
}

/** The install of the 3PL's app on a store (src/domain/channels/app-install.ts). */
export type AppInstall = {
  /** AWAITING: a person named the store, the app is not installed yet; UNINSTALLED: the merchant removed it. */
  status: 'AWAITING' | 'INSTALLED' | 'UNINSTALLED';
  /** An install after this instant is refused until someone names the store again. */
  awaiting_until: string | null;
  installed_at: string | null;
  uninstalled_at: string | null;
  /** The scopes the merchant granted, as the platform's token answer lists them. */
  scope: string | null;
  /** Who installed it (the platform's user), for the 3PL's records. */
  user_email: string | null;
};

export interface OpenConnection {
  shop_id: string;
  shop_type: ConnectedPlatform;
  shop_domain: string;
  api_base_url: string;
  api_version: string | null;
  credentials: Credentials;
  settings: ConnectionSettings;
  /** Stores renewed credentials (a refreshed token); set when the connection was opened with a database. */
  persistCredentials?: (c: Credentials) => Promise<void>;
}

export interface TrackingInfo {
  number: string | null;
  url: string | null;
  company: string | null;
}

/** A carrier's newer status of a shipped parcel (fos shipment_status), for the shop. */
export interface ShipmentUpdate {
  tracking_code: string;
  status: string;
  message: string | null;
  occurred_at: string | null;
}

export interface ShippedLine {
  remote_id: string;
  quantity: number;
}

const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number.parseFloat(String(v ?? ''));
  return Number.isFinite(n) ? n : 0;
};
export const money = num;
export const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null;
