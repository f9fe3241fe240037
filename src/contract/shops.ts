import { Type } from 'typebox';
import { Nullable, Opt, StringEnum, Timestamp, Uuid, pageQuery } from './common.js';
import { SHOP_TYPES } from './orders-enums.js';
import { CHANNEL_DELIVERY_STATUSES } from './enums.js';

// Shops and their platform connections (docs/sales-channels.md). Credentials are write-only:
// no response schema has a member for them.

const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 1024, description });
const BaseUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  pattern: '^https?://',
  description:
    "Where fos sends the platform calls; defaults to the platform's real address (a proxy or a test double may stand in; loopback/private addresses need --allow-private-network)",
});

export const ShopifyConnection = Type.Object(
  {
    shop_domain: Type.String({ minLength: 3, maxLength: 255, description: "the shop's myshopify.com domain" }),
    access_token: Type.Optional(Secret("a legacy custom app's Admin API access token (shpat_…); or give client_id and client_secret")),
    client_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: "the Dev Dashboard app's client ID (client-credentials grant)" }),
    ),
    client_secret: Type.Optional(Secret("the Dev Dashboard app's client secret; fos asks Shopify for 24-hour tokens with it")),
    webhook_secret: Type.Optional(
      Secret(
        "the key Shopify signs webhooks with: the app's client secret (the default with client_id/client_secret), or the key shown under Settings → Notifications → Webhooks",
      ),
    ),
    api_version: Type.Optional(
      Type.String({ pattern: '^(\\d{4}-\\d{2}|unstable)$', maxLength: 10, description: 'GraphQL Admin API version, e.g. 2025-10' }),
    ),
    api_base_url: Type.Optional(BaseUrl),
  },
  { additionalProperties: false },
);

export const WooConnection = Type.Object(
  {
    store_url: Type.String({
      format: 'uri',
      maxLength: 2048,
      pattern: '^https?://',
      description: "the store's address, https://shop.example",
    }),
    consumer_key: Secret('REST API consumer key (ck_…)'),
    consumer_secret: Secret('REST API consumer secret (cs_…)'),
    webhook_secret: Secret("the secret set on the store's webhooks"),
    api_base_url: Type.Optional(BaseUrl),
  },
  { additionalProperties: false },
);

export const BigCommerceConnection = Type.Object(
  {
    store_hash: Type.String({
      pattern: '^[A-Za-z0-9]+$',
      minLength: 1,
      maxLength: 64,
      description: "the store hash of the store API account's API path (https://api.bigcommerce.com/stores/{store_hash}/v3/)",
    }),
    access_token: Secret("the store API account's access token (X-Auth-Token)"),
    webhook_secret: Type.Optional(
      Secret('the value fos sets in the X-Fos-Webhook-Secret header of the order webhooks it registers; generated when not given'),
    ),
    api_base_url: Type.Optional(BaseUrl),
  },
  { additionalProperties: false },
);

export const AmazonConnection = Type.Object(
  {
    refresh_token: Secret("the seller's Login with Amazon refresh token (Atzr|…), from authorizing the SP-API app"),
    client_id: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "the SP-API app's LWA client identifier (amzn1.application-oa2-client.…)",
    }),
    client_secret: Secret("the SP-API app's LWA client secret"),
    region: Type.Optional(StringEnum(['NA', 'EU', 'FE'] as const, { description: 'the selling region: its SP-API endpoint (default NA)' })),
    marketplace_id: Type.String({
      pattern: '^[A-Z0-9]{6,20}$',
      maxLength: 20,
      description: 'the marketplace whose orders and listings fos takes, e.g. ATVPDKIKX0DER (amazon.com)',
    }),
    seller_id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "the seller's merchant token (Seller Central: Settings → Account Info → Merchant Token), for the Listings Items API",
    }),
    token_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        pattern: '^https?://',
        description:
          "Login with Amazon's token endpoint (default https://api.amazon.com/auth/o2/token); a proxy or a test double may stand in",
      }),
    ),
    api_base_url: Type.Optional(BaseUrl),
  },
  { additionalProperties: false },
);

export const EbayConnection = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 255, description: "the application keyset's App ID (OAuth client id)" }),
    client_secret: Secret("the application keyset's Cert ID (OAuth client secret)"),
    refresh_token: Secret(
      "the seller's OAuth refresh token (authorization-code grant with the sell.fulfillment and sell.inventory scopes); fos mints 2-hour User access tokens with it",
    ),
    api_base_url: Type.Optional(BaseUrl),
  },
  { additionalProperties: false },
);

export const AppInstallSchema = Type.Object(
  {
    status: StringEnum(['AWAITING', 'INSTALLED', 'UNINSTALLED'] as const, {
      description:
        "AWAITING: named for the team, the app not installed yet; UNINSTALLED: the merchant removed the app (the shop's orders stay)",
    }),
    awaiting_until: Opt(Timestamp),
    installed_at: Opt(Timestamp),
    uninstalled_at: Opt(Timestamp),
    scope: Opt(Type.String({ description: 'the scopes the merchant granted' })),
    user_email: Opt(Type.String({ description: 'the BigCommerce user who installed the app' })),
  },
  { description: "a shop connected by the server's BigCommerce app (docs/sales-channels.md §3b, the 3PL's app)" },
);

export const EtsyConnection = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 255, description: "the Etsy app's API key keystring (OAuth client id)" }),
    client_secret: Secret("the Etsy app's shared secret (sent with the keystring in x-api-key)"),
    refresh_token: Secret(
      "the seller's OAuth refresh token (authorization-code grant with PKCE, scopes transactions_r transactions_w listings_r listings_w shops_r); fos mints 1-hour access tokens with it",
    ),
    etsy_shop_id: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]*$',
        maxLength: 20,
        description: "the seller's numeric Etsy shop id; read from getMe when not given",
      }),
    ),
    api_base_url: Type.Optional(BaseUrl),
  },
  { additionalProperties: false },
);

export const ShopSettings = Type.Object(
  {
    notify_customer: Type.Optional(
      Type.Boolean({ description: 'Shopify: notifyCustomer on fulfillmentCreate; WooCommerce: the tracking note is a customer note' }),
    ),
    location_id: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 255,
          description: 'the location whose available quantity fos sets: a Shopify location gid, a BigCommerce location id (default 1)',
        }),
      ),
    ),
    warehouse_id: Type.Optional(Nullable(Uuid)),
    ship_on_authorized: Type.Optional(
      Type.Boolean({
        description:
          'an order whose payment is only authorized (Shopify financial_status authorized) ships (true) or waits on an AWAITING_PAYMENT hold (false, the default)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreateShopBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    shop_type: StringEnum(SHOP_TYPES, {
      description: 'SHOPIFY, WOOCOMMERCE, BIGCOMMERCE, AMAZON, EBAY and ETSY connect; MANUAL is a label',
    }),
    merchant_team_id: Type.Optional(Uuid),
    connection: Type.Optional(
      Type.Union([ShopifyConnection, WooConnection, BigCommerceConnection, AmazonConnection, EbayConnection, EtsyConnection], {
        description: 'SHOPIFY, WOOCOMMERCE, BIGCOMMERCE, AMAZON, EBAY or ETSY connection fields',
      }),
    ),
    settings: Type.Optional(ShopSettings),
  },
  { additionalProperties: false },
);

export const UpdateShopBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    active: Type.Optional(
      Type.Boolean({ description: 'false disables the connection: webhooks are refused, nothing is synced or pushed' }),
    ),
    connection: Type.Optional(
      Type.Union([
        Type.Partial(ShopifyConnection),
        Type.Partial(WooConnection),
        Type.Partial(BigCommerceConnection),
        Type.Partial(AmazonConnection),
        Type.Partial(EbayConnection),
        Type.Partial(EtsyConnection),
      ]),
    ),
    settings: Type.Optional(ShopSettings),
  },
  { additionalProperties: false },
);

export const ShopParams = Type.Object({ shop_id: Uuid });
export const DeliveryParams = Type.Object({ shop_id: Uuid, delivery_id: Uuid });

export const ShopListQuery = Type.Object(
  {
    ...pageQuery(),
    shop_type: Type.Optional(StringEnum(SHOP_TYPES)),
  },
  { additionalProperties: false },
);

export const DeliveryListQuery = Type.Object(
  {
    ...pageQuery(),
    status: Type.Optional(StringEnum(CHANNEL_DELIVERY_STATUSES)),
  },
  { additionalProperties: false },
);

export const SyncBody = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'pull orders updated since then (default: since the last sync; the first sync takes every open order)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ShopSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  shop_type: Type.String(),
  merchant_team_id: Type.String(),
  merchant_team_name: Opt(Type.String()),
  fulfiller_team_id: Opt(Type.String()),
  fulfiller_team_name: Opt(Type.String()),
  connected: Type.Boolean(),
  active: Type.Boolean(),
  connection: Opt(
    Type.Object({
      shop_domain: Type.String(),
      api_base_url: Type.String(),
      api_version: Opt(Type.String()),
      webhook_path: Type.String({ description: "append to the server's public URL: the address to give the platform for webhooks" }),
    }),
  ),
  settings: Opt(
    Type.Object({
      notify_customer: Type.Boolean(),
      location_id: Opt(Type.String()),
      warehouse_id: Opt(Type.String()),
      fulfillment_service: Opt(
        Type.Object(
          { id: Type.String(), location_id: Type.String(), callback_url: Type.String() },
          { description: 'Shopify fulfillment-service mode: the service fos registered on the shop and its location' },
        ),
      ),
      ship_on_authorized: Type.Boolean(),
      app_install: Opt(AppInstallSchema),
      shipment_tracking: Type.Boolean({
        description:
          'WooCommerce: the Shipment Tracking extension was found at connect or check (read-only); tracking goes there, else in an order note',
      }),
    }),
  ),
  health: Opt(
    Type.Object({
      last_check_at: Opt(Timestamp),
      last_check_ok: Opt(Type.Boolean()),
      last_sync_at: Opt(Timestamp),
      sync_cursor: Opt(Timestamp),
      last_error: Opt(Type.String()),
      last_error_at: Opt(Timestamp),
      webhooks_received: Type.Number(),
      last_webhook_at: Opt(Timestamp),
      failed_deliveries: Type.Number(),
      failed_pushes: Type.Number(),
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CheckSchema = Type.Object({ ok: Type.Boolean(), platform_shop_name: Opt(Type.String()), error: Opt(Type.String()) });
export const DeletedShopSchema = Type.Object({
  deleted: Type.Boolean({ description: 'false when orders still name the shop: it stays as their label' }),
  disconnected: Type.Boolean(),
});

const counts = (keys: string[]) => Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Number()])));
export const SyncSchema = Type.Object({
  orders: counts(['created', 'updated', 'cancelled', 'unchanged', 'ignored', 'failed']),
  listings: counts(['imported', 'unmatched']),
  since: Opt(Timestamp),
  errors: Type.Array(Type.String()),
  skipped: Type.Array(Type.Object({ remote_id: Type.String(), order_number: Type.String(), reason: Type.String() }), {
    description:
      'orders the sync does not take, with the reason (Amazon: FBA and Pending orders); counted in orders.ignored; at most 100 listed',
  }),
});

export const ChannelDeliverySchema = Type.Object({
  id: Type.String(),
  shop_id: Type.String(),
  topic: Type.String(),
  remote_id: Opt(Type.String()),
  webhook_id: Opt(Type.String()),
  status: Type.String(),
  error: Opt(Type.String()),
  order_id: Opt(Type.String()),
  attempts: Type.Number(),
  processed_at: Opt(Timestamp),
  created_at: Timestamp,
  bytes: Type.Number(),
});

export const WebhookAnswerSchema = Type.Object({ status: Type.String(), delivery_id: Opt(Type.String()) });

export const BigCommerceAppBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'the name the shop gets in fos' }),
    store_hash: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9]+$',
      description: "the merchant's store hash (store-{hash}.mybigcommerce.com, or the API path)",
    }),
    merchant_team_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

export const BigCommerceAppSchema = Type.Object({
  shop_id: Type.String(),
  store_hash: Type.String(),
  app_install: AppInstallSchema,
  auth_callback_url: Type.String({ description: "the app's Auth Callback URL (Dev Portal → the app → Technical)" }),
  load_callback_url: Type.String({ description: "the app's Load Callback URL" }),
  uninstall_callback_url: Type.String({ description: "the app's Uninstall Callback URL" }),
  remove_user_callback_url: Type.String({ description: "the app's Remove User Callback URL (an app with multiple users)" }),
});

export const BigCommerceAuthQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 2048 })),
    scope: Type.Optional(Type.String({ maxLength: 4096 })),
    context: Type.Optional(Type.String({ maxLength: 255 })),
    account_uuid: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: Type.String() },
);

export const BigCommerceSignedQuery = Type.Object(
  { signed_payload_jwt: Type.Optional(Type.String({ maxLength: 8192 })) },
  { additionalProperties: Type.String() },
);

export const BigCommerceUninstallSchema = Type.Object({
  store_hash: Type.String(),
  shop_id: Type.String(),
  disconnected: Type.Boolean(),
});

export const BigCommerceRemoveUserSchema = Type.Object({
  store_hash: Type.String(),
  shop_id: Type.String(),
  user_email: Type.Union([Type.String(), Type.Null()], { description: 'the user whose access the store owner revoked' }),
  changed: Type.Boolean({ description: 'always false: fos keeps nothing per BigCommerce user, the store stays connected' }),
});

export const ShopifyInstallBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'the name the shop gets in fos once installed' }),
    shop_domain: Type.String({ minLength: 3, maxLength: 255, description: "the merchant's myshopify.com domain" }),
    merchant_team_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

export const ShopifyInstallSchema = Type.Object({
  install_url: Type.String({ description: "send it to the merchant: it opens Shopify's install page for the server's app" }),
  redirect_uri: Type.String({ description: "the callback, to list under the app's allowed redirection URLs" }),
  expires_at: Timestamp,
});

export const ShopifyCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String()),
    hmac: Type.Optional(Type.String()),
    shop: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
  },
  { additionalProperties: Type.String() },
);

const RequestOutcome = Type.Object({
  fulfillment_order_id: Type.String(),
  outcome: StringEnum(['ACCEPTED', 'REJECTED', 'FAILED'] as const),
  order_id: Opt(Type.String()),
  reason: Opt(Type.String()),
});
export const FulfillmentNotificationAnswer = Type.Object({
  kind: Type.String(),
  fulfillment_requests: Type.Array(RequestOutcome),
  cancellation_requests: Type.Array(RequestOutcome),
});
