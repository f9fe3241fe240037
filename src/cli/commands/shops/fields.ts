import type { FieldSpec } from '../../shared/flags.js';
import { resourcePath } from '../../shared/resource.js';

// `fos shops …` (docs/sales-channels.md). Credentials come from flags, from --data - (JSON on
// stdin, so they stay out of the process list), or, on a terminal, from hidden prompts.

export const shopPath = (id?: string, sub?: string) => resourcePath('/ops/shops', id, sub);

const common: FieldSpec[] = [
  { key: 'name', description: 'shop name in fos', required: true },
  {
    key: 'merchant_team_id',
    flag: '--merchant',
    arg: 'name|id',
    description: 'merchant (needed when several are delegated)',
    ref: 'merchant',
  },
  { key: 'connection.webhook_secret', flag: '--webhook-secret', arg: 'secret', description: 'the secret the platform signs webhooks with' },
  {
    key: 'connection.api_base_url',
    flag: '--api-base-url',
    arg: 'url',
    description: 'send platform calls here instead (proxy, test double)',
  },
  {
    key: 'settings.notify_customer',
    flag: '--notify-customer',
    type: 'boolean',
    description: 'Shopify: email the customer on fulfillment; WooCommerce: customer note',
  },
  {
    key: 'settings.ship_on_authorized',
    flag: '--ship-on-authorized',
    type: 'boolean',
    description: 'ship orders whose payment is only authorized (default false: they wait on AWAITING_PAYMENT)',
  },
  {
    key: 'settings.warehouse_id',
    flag: '--warehouse',
    arg: 'name|id',
    description: 'push the available stock of this warehouse only',
    ref: 'warehouse',
  },
];

export const SHOPIFY_FIELDS: FieldSpec[] = [
  ...common,
  { key: 'connection.shop_domain', flag: '--shop-domain', arg: 'name.myshopify.com', description: "the shop's myshopify.com domain" },
  { key: 'connection.client_id', flag: '--client-id', arg: 'id', description: "Dev Dashboard app's client ID (client-credentials grant)" },
  { key: 'connection.client_secret', flag: '--client-secret', arg: 'secret', description: "Dev Dashboard app's client secret" },
  { key: 'connection.access_token', flag: '--access-token', arg: 'shpat_…', description: "a legacy custom app's Admin API access token" },
  { key: 'connection.api_version', flag: '--api-version', arg: 'YYYY-MM', description: 'GraphQL Admin API version' },
  { key: 'settings.location_id', flag: '--location', arg: 'gid', description: 'Shopify location whose available quantity fos sets' },
];

export const WOO_FIELDS: FieldSpec[] = [
  ...common,
  { key: 'connection.store_url', flag: '--store-url', arg: 'https://…', description: "the store's address" },
  { key: 'connection.consumer_key', flag: '--consumer-key', arg: 'ck_…', description: 'REST API consumer key' },
  { key: 'connection.consumer_secret', flag: '--consumer-secret', arg: 'cs_…', description: 'REST API consumer secret' },
];

export const BIGCOMMERCE_FIELDS: FieldSpec[] = [
  ...common,
  {
    key: 'connection.store_hash',
    flag: '--store-hash',
    arg: 'hash',
    description: 'the store hash of the API path, https://api.bigcommerce.com/stores/{hash}/v3/',
  },
  { key: 'connection.access_token', flag: '--access-token', arg: 'token', description: "the store API account's access token" },
  { key: 'settings.location_id', flag: '--location', arg: 'id', description: 'BigCommerce location whose stock fos sets (default 1)' },
];

/** What a person creates on BigCommerce's side before connecting (printed before the prompts). */
export const BIGCOMMERCE_GUIDE = [
  'In the BigCommerce control panel: Settings → Store-level API accounts → Create API account (V2/V3 API token),',
  'with the OAuth scopes Orders: modify, Products: read-only, Information & settings: read-only, Store inventory: modify.',
  'Copy the access token and the store hash (the API path https://api.bigcommerce.com/stores/{store_hash}/v3/).',
  'fos registers the store/order/* webhook itself, with a secret header of its own.',
].join('\n');

export const AMAZON_FIELDS: FieldSpec[] = [
  ...common.filter((f) => f.key !== 'connection.webhook_secret'), // Amazon sends no webhooks
  { key: 'connection.region', flag: '--region', arg: 'NA|EU|FE', description: 'the selling region (default NA)' },
  {
    key: 'connection.marketplace_id',
    flag: '--marketplace-id',
    arg: 'id',
    description: 'the marketplace, e.g. ATVPDKIKX0DER (amazon.com)',
  },
  { key: 'connection.seller_id', flag: '--seller-id', arg: 'token', description: "the seller's merchant token (Settings → Account Info)" },
  { key: 'connection.client_id', flag: '--client-id', arg: 'id', description: "the SP-API app's LWA client identifier" },
  { key: 'connection.client_secret', flag: '--client-secret', arg: 'secret', description: "the SP-API app's LWA client secret" },
  { key: 'connection.refresh_token', flag: '--refresh-token', arg: 'Atzr|…', description: "the seller's LWA refresh token" },
  { key: 'connection.token_url', flag: '--token-url', arg: 'url', description: 'Login with Amazon token endpoint (proxy, test double)' },
];

/** What a person creates on Amazon's side before connecting (printed before the prompts). */
export const AMAZON_GUIDE = [
  'In Seller Central: Apps and Services → Develop Apps, register as a private developer with the roles Inventory and Order',
  'Tracking, Product Listing, and Direct-to-Consumer Shipping (restricted: the buyer address; without it orders arrive held',
  'without a street). Add an app client (SP-API), then View: the LWA client id and secret; Authorize app: the refresh token.',
  'The merchant token is under Settings → Account Info → Your Merchant Token. Amazon sends no webhooks: fos syncs on a schedule.',
].join('\n');

export const EBAY_FIELDS: FieldSpec[] = [
  ...common.filter((f) => f.key !== 'connection.webhook_secret' && f.key !== 'settings.notify_customer'),
  { key: 'connection.client_id', flag: '--client-id', arg: 'app-id', description: "the application keyset's App ID (client id)" },
  {
    key: 'connection.client_secret',
    flag: '--client-secret',
    arg: 'cert-id',
    description: "the application keyset's Cert ID (client secret)",
  },
  {
    key: 'connection.refresh_token',
    flag: '--refresh-token',
    arg: 'token',
    description: "the seller's OAuth refresh token (sell.fulfillment, sell.inventory)",
  },
];

/** What a person creates on eBay's side before connecting (printed before the prompts). */
export const EBAY_GUIDE = [
  'In the eBay developer program (developer.ebay.com → Application Keys): a Production keyset (or Sandbox,',
  'with --api-base-url https://api.sandbox.ebay.com); its App ID is the client id, its Cert ID the client secret.',
  'Under User Tokens → "Get a Token from eBay via Your Application", sign in as the seller and consent to the OAuth',
  'scopes sell.fulfillment and sell.inventory; copy the refresh token (valid about 18 months).',
  'fos takes eBay orders by sync (fos serve syncs every 15 minutes; fos shops sync <shop-id> syncs now).',
].join('\n');

export const ETSY_FIELDS: FieldSpec[] = [
  ...common.filter((f) => f.key !== 'connection.webhook_secret' && f.key !== 'settings.notify_customer'),
  { key: 'connection.client_id', flag: '--client-id', arg: 'keystring', description: "the Etsy app's API key keystring" },
  { key: 'connection.client_secret', flag: '--client-secret', arg: 'secret', description: "the Etsy app's shared secret" },
  {
    key: 'connection.refresh_token',
    flag: '--refresh-token',
    arg: 'token',
    description: "the seller's OAuth refresh token (transactions_r transactions_w listings_r listings_w shops_r)",
  },
  {
    key: 'connection.etsy_shop_id',
    flag: '--etsy-shop-id',
    arg: 'id',
    description: "the seller's numeric Etsy shop id (default: the token's shop)",
  },
];

/** What a person creates on Etsy's side before connecting (printed before the prompts). */
export const ETSY_GUIDE = [
  'On etsy.com/developers/your-apps: an app; its API key keystring is the client id, its shared secret the client secret.',
  "With --oauth fos asks the seller's consent itself (OAuth 2.0 with PKCE) and keeps the refresh token: no token to give here.",
  'Without it, give the refresh token of a consent made elsewhere (scopes transactions_r transactions_w listings_r listings_w',
  'shops_r; 90 days, renewed by every refresh). fos takes Etsy receipts by sync (every 15 minutes; fos shops sync <shop-id> now).',
].join('\n');

/** What each platform needs in `connection`, and whether it is a secret (asked hidden). */
export const REQUIRED: Record<'SHOPIFY' | 'WOOCOMMERCE' | 'BIGCOMMERCE' | 'AMAZON' | 'EBAY' | 'ETSY', [string, string, boolean][]> = {
  SHOPIFY: [
    ['shop_domain', '--shop-domain', false],
    ['client_id', '--client-id', false],
    ['client_secret', '--client-secret', true],
  ],
  WOOCOMMERCE: [
    ['store_url', '--store-url', false],
    ['consumer_key', '--consumer-key', true],
    ['consumer_secret', '--consumer-secret', true],
    ['webhook_secret', '--webhook-secret', true],
  ],
  BIGCOMMERCE: [
    ['store_hash', '--store-hash', false],
    ['access_token', '--access-token', true],
  ],
  AMAZON: [
    ['marketplace_id', '--marketplace-id', false],
    ['seller_id', '--seller-id', false],
    ['client_id', '--client-id', false],
    ['client_secret', '--client-secret', true],
    ['refresh_token', '--refresh-token', true],
  ],
  EBAY: [
    ['client_id', '--client-id', false],
    ['client_secret', '--client-secret', true],
    ['refresh_token', '--refresh-token', true],
  ],
  ETSY: [
    ['client_id', '--client-id', false],
    ['client_secret', '--client-secret', true],
    ['refresh_token', '--refresh-token', true],
  ],
};

/** A legacy custom app's token instead of client credentials: what is asked then. */
export const SHOPIFY_TOKEN_REQUIRED: [string, string, boolean][] = [
  ['shop_domain', '--shop-domain', false],
  ['access_token', '--access-token', true],
  ['webhook_secret', '--webhook-secret', true],
];
