// Etsy connection credentials, sealed like every connector's (secret-box), and the constants
// the connector shares (docs/sales-channels.md §3e).

export interface EtsyCredentials {
  /** The app's API key keystring: the OAuth client id, and the first half of x-api-key. */
  client_id: string;
  /** The app's shared secret: the second half of x-api-key (keystring:shared_secret). */
  client_secret: string;
  /** The seller's OAuth refresh token (authorization-code grant with PKCE; 90 days, renewed by each refresh). */
  refresh_token: string;
  /** The seller's numeric Etsy shop id: given at connect, or read from getMe by the check. */
  etsy_shop_id: string | null;
  /** The cached access token (1 hour) and when it expires (ISO). */
  access_token?: string | null;
  token_expires_at?: string | null;
  /**
   * fos subscribes to no Etsy webhooks (orders come by polling sync): every delivery to the
   * shop's webhook address is refused. Empty; present because every connection carries one.
   */
  webhook_secret: string;
}

/** Etsy's API host: the token endpoint (/v3/public/oauth/token) and the Open API (/v3/application/…). */
export const ETSY_API = 'https://api.etsy.com';

/**
 * Etsy's carrier names for createReceiptShipment, by a carrier's name with letters only; any other
 * carrier is sent as "other" (Etsy takes the tracking code then, but cannot follow it).
 */
export const CARRIER_NAMES: Record<string, string> = {
  usps: 'usps',
  ups: 'ups',
  fedex: 'fedex',
  dhl: 'dhl',
  dhlexpress: 'dhl',
  canadapost: 'canada-post',
  royalmail: 'royal-mail',
  australiapost: 'australia-post',
  auspost: 'australia-post',
  deutschepost: 'deutsche-post',
};

/** An offering's quantity: Etsy takes 0 to 999. */
export const MAX_QUANTITY = 999;
