// Amazon Selling Partner API connection credentials, sealed like every connector's (secret-box),
// and the documented addresses (SP-API docs: "SP-API endpoints", "Connecting to the SP-API").

export const REGIONS = ['NA', 'EU', 'FE'] as const;
export type AmazonRegion = (typeof REGIONS)[number];

/** The SP-API endpoint of each selling region. */
export const SP_API_ENDPOINTS: Record<AmazonRegion, string> = {
  NA: 'https://sellingpartnerapi-na.amazon.com',
  EU: 'https://sellingpartnerapi-eu.amazon.com',
  FE: 'https://sellingpartnerapi-fe.amazon.com',
};

/** Login with Amazon's token endpoint: one address for every SP-API region. */
export const LWA_TOKEN_URL = 'https://api.amazon.com/auth/o2/token';

export interface AmazonCredentials {
  /** The seller's LWA refresh token (Atzr|…): from the app's authorization in Seller Central. */
  refresh_token: string;
  /** The SP-API app's LWA client identifier and secret (Developer Central → the app → View). */
  client_id: string;
  client_secret: string;
  region: AmazonRegion;
  /** The marketplace whose orders and listings fos takes (ATVPDKIKX0DER: amazon.com). */
  marketplace_id: string;
  /** The seller's merchant token (Seller Central → Settings → Account info → Merchant Token): Listings Items API paths. */
  seller_id: string | null;
  token_url: string;
  /** The cached LWA access token and when it expires (ISO). */
  access_token?: string | null;
  token_expires_at?: string | null;
}

/** The Orders API's own words for the orders fos takes (OrderStatus, FulfillmentChannel). */
export const OPEN_STATUSES = ['Unshipped', 'PartiallyShipped'];
export const PAID_STATUSES = ['Unshipped', 'PartiallyShipped', 'Shipped', 'InvoiceUnconfirmed'];
export const CANCELLED_STATUSES = ['Canceled', 'Unfulfillable'];
