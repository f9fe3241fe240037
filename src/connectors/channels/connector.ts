import type { Db } from '../../db/types.js';
import type { METADATA_KEYS } from '../../contract/orders-enums.js';
import type { ChannelEnv } from './http.js';
import type {
  ChannelOrder,
  ChannelVariant,
  ConnectedPlatform,
  ConnectionSettings,
  Credentials,
  OpenConnection,
  ShipmentUpdate,
  ShippedLine,
  TrackingInfo,
} from './types.js';

// The one shape every sales-channel connector implements (src/connectors/channels/<platform>/).
// The domain (src/domain/channels) reaches a platform only through it, from the registry keyed
// by shop type (registry.ts), and never branches on the platform's name (test/unit/layers.test.ts).
// Pages are addressed by an opaque token: a GraphQL cursor, a page number.

/** The connection fields a person gives (POST /v1/ops/shops `connection`), every platform's together. */
export interface ConnectionInput {
  shop_domain?: string;
  store_url?: string;
  /** BigCommerce: the store hash of the API account's API path (…/stores/{store_hash}/). */
  store_hash?: string;
  access_token?: string;
  client_id?: string;
  client_secret?: string;
  consumer_key?: string;
  consumer_secret?: string;
  webhook_secret?: string;
  api_version?: string;
  api_base_url?: string;
  /** Carried over from stored credentials on an update (the cached token's expiry). */
  token_expires_at?: string | null;
  /** Amazon, eBay and Etsy: the seller's OAuth refresh token (eBay: with client_id and client_secret, the app keyset; Etsy: the keystring and shared secret). Amazon: the seller's LWA refresh token, selling region (NA, EU, FE), marketplace, merchant token, LWA token URL. */
  refresh_token?: string;
  region?: string;
  marketplace_id?: string;
  seller_id?: string | null;
  token_url?: string;
  /** Etsy: the seller's numeric shop id (read from getMe when not given). */
  etsy_shop_id?: string | null;
}

/** Validated connection fields, with defaults (api_base_url = the platform's real address). */
export interface ConnectionFields {
  domain: string;
  credentials: Credentials;
  apiBase: string;
  apiVersion: string | null;
}

export interface Page<T> {
  items: T[];
  next: string | null;
  /** Orders of the page fos does not take (Amazon's FBA orders), with the reason: counted as ignored by the sync. */
  skipped?: Skipped[];
  /** What a page could not read but the sync goes on without (eBay's Trading listings): listed in the summary's errors. */
  errors?: string[];
}

export interface Skipped {
  remote_id: string;
  order_number: string;
  reason: string;
}

export interface CheckResult {
  name: string;
  currency: string | null;
  /** WooCommerce: the Shipment Tracking extension is active. */
  shipment_tracking?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
export type Json = Record<string, any>;

/** What one verified webhook delivery asks of fos. */
export type WebhookMeaning =
  | { kind: 'order'; order: ChannelOrder }
  | { kind: 'cancel'; remote_id: string }
  | { kind: 'ignore'; reason: string; remote_id: string | null };

export type Headers = Record<string, unknown>;

export interface ChannelWebhooks {
  /** The topics fos takes; any other is stored IGNORED with the list. */
  readonly topics: readonly string[];
  /** The delivery is the platform's, for this shop's secret (constant-time). */
  verify(secret: string, headers: Headers, body: Buffer): boolean;
  /** An unsigned ping a platform sends to a new webhook: answered 200, nothing stored. */
  isPing?(headers: Headers, body: Buffer): boolean;
  topic(headers: Headers, body: Buffer): string | null;
  deliveryId(headers: Headers, body: Buffer): string | null;
  /** The delivery's meaning; a platform with thin payloads reads the order from its API (open: the connection). */
  interpret(topic: string, body: Json, open: () => Promise<OpenConnection>, env: ChannelEnv): Promise<WebhookMeaning>;
}

export interface ChannelConnector {
  readonly platform: ConnectedPlatform;
  /** The platform's name in messages. */
  readonly label: string;
  /** Where the platform's order metadata goes on the fos order (spec 2.6 metadata.<key>). */
  readonly metadataKey: (typeof METADATA_KEYS)[number];
  /** Connect: the connection fields validated, with defaults; throws a 400 (DomainError) naming the field. */
  fields(c: ConnectionInput): ConnectionFields;
  /** Verify credentials: one real call. */
  check(conn: OpenConnection, env: ChannelEnv): Promise<CheckResult>;
  /**
   * After a successful check at connect: what the platform needs set up by fos (BigCommerce's
   * order webhooks, with the secret header); the settings to keep. Absent: nothing to set up.
   */
  register?(conn: OpenConnection, env: ChannelEnv): Promise<Partial<ConnectionSettings>>;
  readonly webhooks: ChannelWebhooks;
  /** Orders updated since `since` (open orders when null), page by page. */
  orders(conn: OpenConnection, env: ChannelEnv, since: Date | null, token: string | null): Promise<Page<ChannelOrder>>;
  /** Listings: the shop's variants, page by page. */
  variants(conn: OpenConnection, env: ChannelEnv, token: string | null, currency: string | null): Promise<Page<ChannelVariant>>;
  /** A fulfillment with tracking; the detail shown on the order. Idempotent where the platform allows. */
  fulfill(
    conn: OpenConnection,
    env: ChannelEnv,
    order: { remote_id: string; order_number: string },
    lines: ShippedLine[],
    tracking: TrackingInfo,
    complete: boolean,
  ): Promise<string>;
  /** A shipped parcel's newer status; null when the shop has nothing it could attach it to. */
  shipmentStatus(
    conn: OpenConnection,
    env: ChannelEnv,
    order: { remote_id: string; order_number: string },
    u: ShipmentUpdate,
  ): Promise<string | null>;
  /** Stock: absolute available quantities. */
  setStock(
    conn: OpenConnection,
    env: ChannelEnv,
    items: { remote_id: string; listing_id: string | null; inventory_item_id: string | null; quantity: number }[],
  ): Promise<void>;
  /**
   * The platform asks fos to take or cancel work (Shopify's fulfillment-service notification):
   * fos answers each request (accepted, or a cancellation refused once packing started).
   * Absent: the platform sends none (404-like refusal).
   */
  answerRequests?(db: Db, shopId: string, body: Buffer, env: ChannelEnv): Promise<unknown>;
  /**
   * The shop is deleted: removes what `register` set up on the platform (BigCommerce's order
   * webhooks), so it stops calling fos. Best effort (the caller logs the outcome and deletes the
   * shop either way); returns what was done. Absent: fos set nothing up there.
   */
  unregister?(conn: OpenConnection, env: ChannelEnv): Promise<string>;
  /**
   * The seller's consent asked through fos (OAuth authorization code; Etsy with PKCE): the page
   * the seller opens, and the callback's code exchanged for what the connection keeps.
   * Absent: the platform's tokens are made on its side and given at connect.
   */
  readonly consent?: ChannelConsent;
}

/** An app's keys and where its consent and token calls go. */
export interface ConsentApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  apiBaseUrl: string;
  /** The platform's consent page host (default: its real one). */
  connectBaseUrl?: string;
}

export interface ChannelConsent {
  /** A fresh state (the callback's only credential), the verifier to keep, and the page to open. */
  begin(app: ConsentApp): { state: string; verifier: string; authorizeUrl: string };
  /** The callback's code exchanged: the credentials to merge over the connection's fields. */
  exchange(app: ConsentApp, code: string, verifier: string, env: ChannelEnv): Promise<Partial<Credentials>>;
}
