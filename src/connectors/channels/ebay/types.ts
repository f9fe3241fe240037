// eBay connection credentials, sealed like every connector's (secret-box), and the constants
// the connector shares (docs/sales-channels.md §eBay).

export interface EbayCredentials {
  /** The application keyset's App ID (OAuth client id). */
  client_id: string;
  /** The keyset's Cert ID (OAuth client secret). */
  client_secret: string;
  /** The seller's long-lived refresh token (authorization-code grant, about 18 months). */
  refresh_token: string;
  /** The cached User access token (about 2 hours) and when it expires (ISO). */
  access_token?: string | null;
  token_expires_at?: string | null;
  /**
   * fos subscribes to no eBay notifications (orders come by polling sync): every delivery to the
   * shop's webhook address is refused. Empty; present because every connection carries one.
   */
  webhook_secret: string;
}

export const EBAY_API = 'https://api.ebay.com';
export const EBAY_SANDBOX_API = 'https://api.sandbox.ebay.com';

/** The OAuth scopes fos asks for on refresh: the seller consented to them (a subset is refused by eBay). */
export const EBAY_SCOPES = ['https://api.ebay.com/oauth/api_scope/sell.fulfillment', 'https://api.ebay.com/oauth/api_scope/sell.inventory'];

/**
 * eBay's shipping carrier codes (GeteBayDetails ShippingCarrierDetails, which createShippingFulfillment
 * takes) by a carrier's name with letters only; any other carrier is sent as "Other".
 */
export const CARRIER_CODES: Record<string, string> = {
  usps: 'USPS',
  ups: 'UPS',
  fedex: 'FedEx',
  dhl: 'DHL',
  dhlexpress: 'DHL',
  deutschepost: 'DeutschePost',
  hermes: 'Hermes',
  royalmail: 'RoyalMail',
  canadapost: 'CanadaPost',
  australiapost: 'AustraliaPost',
  auspost: 'AustraliaPost',
};
