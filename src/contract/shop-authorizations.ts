import { Type } from 'typebox';
import { Opt, StringEnum, Timestamp, Uuid } from './common.js';

// A seller's consent asked through fos (docs/sales-channels.md §3e step 2, Etsy's OAuth 2.0 with
// PKCE). The keys are write-only: no response has a member for them, nor for the state or the
// PKCE verifier.

const HttpUrl = (description: string) => Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://', description });

export const EtsyAuthorizationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'the name the shop gets in fos once the seller consents' }),
    merchant_team_id: Type.Optional(Uuid),
    client_id: Type.String({ minLength: 1, maxLength: 255, description: "the Etsy app's API key keystring (OAuth client id)" }),
    client_secret: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "the Etsy app's shared secret (sent with the keystring in x-api-key); kept sealed",
    }),
    etsy_shop_id: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]*$',
        maxLength: 20,
        description: "the seller's numeric Etsy shop id; the consenting seller's shop must be this one (default: theirs)",
      }),
    ),
    api_base_url: Type.Optional(
      HttpUrl('where the token exchange and the Open API calls go (default https://api.etsy.com; a proxy or a test double may stand in)'),
    ),
    connect_base_url: Type.Optional(HttpUrl("where the seller's consent page is, <url>/oauth/connect (default https://www.etsy.com)")),
  },
  { additionalProperties: false },
);

export const ShopAuthorizationStatus = StringEnum(['PENDING', 'CONNECTED', 'FAILED', 'EXPIRED'] as const, {
  description:
    'PENDING: waiting for the seller; CONNECTED: the shop is made (shop_id); FAILED: refused on either side (message); EXPIRED: the seller did not consent in time',
});

export const ShopAuthorizationSchema = Type.Object({
  id: Type.String(),
  shop_type: Type.String(),
  name: Type.String({ description: 'the name the shop gets in fos' }),
  merchant_team_id: Type.String(),
  status: ShopAuthorizationStatus,
  message: Opt(Type.String({ description: 'why it FAILED or EXPIRED' })),
  shop_id: Opt(Type.String({ description: 'the connected shop, once CONNECTED' })),
  redirect_uri: Type.String({
    description: "the callback the seller's browser returns to: register it as a callback URL of the Etsy app (exactly)",
  }),
  expires_at: Timestamp,
  created_at: Timestamp,
});

export const CreatedShopAuthorizationSchema = Type.Object({
  ...ShopAuthorizationSchema.properties,
  authorize_url: Type.String({
    description: 'the consent page: the seller opens it signed in to Etsy; it holds the state, so give it to the seller only',
  }),
});

export const ShopAuthorizationParams = Type.Object({ authorization_id: Uuid });

/** What Etsy's redirect carries: ?code&state, or ?error&error_description&state. */
export const EtsyCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 2048 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 255 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: Type.String() },
);
