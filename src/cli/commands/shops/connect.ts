import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeCommand } from '../../shared/resource.js';
import type { FieldSpec } from '../../shared/flags.js';
import {
  AMAZON_FIELDS,
  AMAZON_GUIDE,
  BIGCOMMERCE_FIELDS,
  BIGCOMMERCE_GUIDE,
  REQUIRED,
  SHOPIFY_FIELDS,
  SHOPIFY_TOKEN_REQUIRED,
  WOO_FIELDS,
  shopPath,
  EBAY_FIELDS,
  EBAY_GUIDE,
  ETSY_FIELDS,
  ETSY_GUIDE,
} from './fields.js';
import { declareOutput, local, response } from '../../output/shape.js';
import { afterConsent, authorizationsPath, checkConsentFlags, consentBody, consentOptions } from './consent.js';

/** One platform's `fos shops connect <name>`: its flags, what is asked, and what to do on its side first. */
interface PlatformSpec {
  name: string;
  shopType: keyof typeof REQUIRED;
  label: string;
  fields: FieldSpec[];
  /** What is asked on a terminal for what the flags left out, given the connection so far. */
  asked: (conn: Record<string, unknown>) => [string, string, boolean][];
  /** Shopify: --oauth makes an install link of the server's app instead. */
  oauth?: boolean;
  /** Etsy: --oauth asks the seller's consent through fos (consent.ts): the keys, no refresh token. */
  consent?: boolean;
  /** BigCommerce: --app names the store for the server's single-click app instead. */
  app?: boolean;
  guide?: string;
  example: string;
  /** A platform that sends no webhooks: what is said instead of the webhook address. */
  noWebhooks?: string;
  /** A platform whose webhooks fos registers itself at connect: what is said instead of the address. */
  registered?: string;
}

const PLATFORMS: PlatformSpec[] = [
  {
    name: 'shopify',
    shopType: 'SHOPIFY',
    label: 'Shopify',
    fields: SHOPIFY_FIELDS,
    asked: (conn) => (conn.access_token ? SHOPIFY_TOKEN_REQUIRED : REQUIRED.SHOPIFY),
    oauth: true,
    example: 'fos shops connect shopify --name "My Shop" --shop-domain my-shop.myshopify.com --client-id … --client-secret …',
  },
  {
    name: 'woocommerce',
    shopType: 'WOOCOMMERCE',
    label: 'WooCommerce',
    fields: WOO_FIELDS,
    asked: () => REQUIRED.WOOCOMMERCE,
    example:
      'fos shops connect woocommerce --name "My Store" --store-url https://store.example --consumer-key ck_… --consumer-secret cs_… --webhook-secret …',
  },
  {
    name: 'bigcommerce',
    shopType: 'BIGCOMMERCE',
    label: 'BigCommerce',
    fields: BIGCOMMERCE_FIELDS,
    asked: () => REQUIRED.BIGCOMMERCE,
    guide: BIGCOMMERCE_GUIDE,
    app: true,
    registered:
      "fos registered the store/order/* webhook on BigCommerce itself (to fos's public address, with the shop's secret header): nothing to add on BigCommerce's side",
    example: 'fos shops connect bigcommerce --name "My Store" --store-hash abc123 --access-token …',
  },
  {
    name: 'amazon',
    shopType: 'AMAZON',
    label: 'Amazon',
    fields: AMAZON_FIELDS,
    asked: () => REQUIRED.AMAZON,
    guide: AMAZON_GUIDE,
    noWebhooks: 'Amazon sends no webhooks: fos syncs its orders on a schedule (fos shops sync <shop id> for one now)',
    example: 'fos shops connect amazon --name "Acme Amazon US" --region NA --marketplace-id ATVPDKIKX0DER --seller-id A1B2C3D4E5F6G7',
  },
  {
    name: 'ebay',
    shopType: 'EBAY',
    label: 'eBay',
    fields: EBAY_FIELDS,
    asked: () => REQUIRED.EBAY,
    guide: EBAY_GUIDE,
    noWebhooks: 'fos takes no eBay webhooks: orders come by sync (every 15 minutes, or now with fos shops sync <shop-id>)',
    example: 'fos shops connect ebay --name "My eBay" --client-id … --client-secret … --refresh-token …',
  },
  {
    name: 'etsy',
    shopType: 'ETSY',
    label: 'Etsy',
    fields: ETSY_FIELDS,
    asked: () => REQUIRED.ETSY,
    guide: ETSY_GUIDE,
    consent: true,
    noWebhooks: 'fos takes no Etsy webhooks: receipts come by sync (every 15 minutes, or now with fos shops sync <shop-id>)',
    example: 'fos shops connect etsy --name "My Etsy" --client-id … --oauth --wait   # the seller consents; or --refresh-token …',
  },
];

/** What a consent asks on a terminal: the app's keys (the refresh token comes from the seller). */
const CONSENT_ASKED: [string, string, boolean][] = [
  ['client_id', '--client-id', false],
  ['client_secret', '--client-secret', true],
];

async function ask(c: Context, into: Record<string, unknown>, asked: [string, string, boolean][]) {
  for (const [key, flag, secret] of asked) {
    if (into[key] !== undefined) continue;
    into[key] = secret
      ? await c.prompt.password({ message: `${key.replace(/_/g, ' ')}:`, flag })
      : await c.prompt.input({ message: `${key.replace(/_/g, ' ')}:`, flag });
  }
}

function platform(ctx: Context, p: PlatformSpec): Command {
  const { shopType } = p;
  const consent = (opts: Record<string, unknown>) => !!(p.consent && opts.oauth);
  return writeCommand(ctx, {
    // --oauth (Etsy): the authorization, or with --wait the shop it connected.
    output: response(async (opts) =>
      consent(opts) && !opts.wait
        ? (await import('../../../contract/shop-authorizations.js')).CreatedShopAuthorizationSchema
        : (await import('../../../contract/shops.js')).ShopSchema,
    ),
    name: p.name,
    description: `Connect ${/^[aeiou]/i.test(p.label) ? 'an' : 'a'} ${p.label} shop (checked with one real call; credentials are stored sealed)`,
    method: 'POST',
    mode: 'create',
    // --oauth (Shopify): an install link of the server's app for the merchant, not a connection.
    // --app (BigCommerce): the store is named for the server's app; its install connects it.
    // --oauth (Etsy): a pending authorization; the seller's consent connects the shop.
    path: (_args, opts) =>
      consent(opts)
        ? authorizationsPath(p.name)
        : opts.oauth
          ? `${shopPath()}/shopify/install`
          : opts.app
            ? `${shopPath()}/bigcommerce/app`
            : shopPath(),
    fields: p.fields,
    configure: (cmd) => {
      if (p.oauth) cmd.option('--oauth', "print an install link of the server's Shopify app for this shop (OAuth; needs --shop-domain)");
      if (p.consent) consentOptions(cmd, p.label);
      if (p.app)
        cmd.option('--app', "name the store for the server's BigCommerce app: installing the app connects it (needs --store-hash)");
    },
    transform: (body, opts) => {
      if (p.consent) checkConsentFlags(opts);
      if (consent(opts)) return consentBody(body, opts);
      const conn = (body.connection ?? {}) as Record<string, unknown>;
      if (opts.app) {
        if (!conn.store_hash) throw new UsageError('--app needs --store-hash <hash> (store-{hash}.mybigcommerce.com)');
        const team = body.merchant_team_id ? { merchant_team_id: body.merchant_team_id } : {};
        return { name: body.name, store_hash: conn.store_hash, ...team };
      }
      if (!opts.oauth) return { ...needed(ctx, p, body, opts), shop_type: shopType };
      if (!conn.shop_domain) throw new UsageError('--oauth needs --shop-domain <name.myshopify.com>');
      return {
        name: body.name,
        shop_domain: conn.shop_domain,
        ...(body.merchant_team_id ? { merchant_team_id: body.merchant_team_id } : {}),
      };
    },
    // On a terminal, what the flags left out is asked; secrets without echo.
    interactive: async (c, body) => {
      if (!body.shop_type) {
        if (!p.consent) return; // Shopify's install link asks nothing
        const asked = CONSENT_ASKED.filter(([key]) => body[key] === undefined);
        if (p.guide && asked.length) c.io.info(p.guide);
        return ask(c, body, asked);
      }
      const conn = (body.connection ??= {}) as Record<string, unknown>;
      const asked = p.asked(conn).filter(([key]) => conn[key] === undefined);
      if (p.guide && asked.length) c.io.info(p.guide);
      await ask(c, conn, asked);
    },
    print: async (c, record, opts) => {
      if (!consent(opts)) return false;
      await afterConsent(c, p.name, p.label, record as Parameters<typeof afterConsent>[3], opts);
      return true;
    },
    after: async (c, record) => {
      const link = (record as { install_url?: string }).install_url;
      if (link) return c.io.info(`send this link to the merchant to install the app: ${link}`);
      const app = record as { auth_callback_url?: string; store_hash?: string; app_install?: { awaiting_until?: string | null } };
      if (app.auth_callback_url)
        return c.io.info(
          [
            `store ${app.store_hash} awaits the app's install${app.app_install?.awaiting_until ? ` until ${app.app_install.awaiting_until}` : ''}:`,
            "the merchant installs the app from the store's control panel (Apps → Marketplace, or My Apps → My Draft Apps);",
            `the app's Auth Callback URL is ${app.auth_callback_url} (Load, Uninstall and Remove User: …/load, …/uninstall, …/remove_user).`,
          ].join('\n'),
        );
      const conn = (record as { connection?: { webhook_path?: string } }).connection;
      if (!conn?.webhook_path) return;
      if (p.noWebhooks) return c.io.info(p.noWebhooks);
      if (p.registered) return c.io.info(p.registered);
      // The server as this CLI reaches it; behind a TLS proxy, the platform needs the public https URL.
      const { base_url } = (await c.config.load()).resolve({ profile: c.options.profile, baseUrl: c.options.baseUrl });
      const root = base_url ? base_url.replace(/\/v1\/?$/, '') : '<your fos URL>';
      c.io.info(`webhook address for the platform: ${root}${conn.webhook_path}`);
    },
    examples: [p.example, `${p.example.split(' --')[0]} --data - < connection.json   # credentials from stdin`],
  });
}

/**
 * Without a terminal to ask on (a script, or --data), what the flags and --data left out is a usage
 * error naming the flags, as every command says it (docs/cli.md), instead of the server's field path.
 */
function needed(ctx: Context, p: PlatformSpec, body: Record<string, unknown>, opts: Record<string, unknown>) {
  if (ctx.io.canPrompt && !opts.data) return body; // asked on the terminal (interactive)
  const conn = (body.connection ?? {}) as Record<string, unknown>;
  const missing = p.asked(conn).filter(([key]) => conn[key] === undefined || conn[key] === '');
  if (!missing.length) return body;
  const flags = missing.map(([key, flag, secret]) => (secret ? `${flag} (or connection.${key} in --data -)` : flag));
  throw new UsageError(
    `${p.label} needs ${flags.join(', ')}; on a terminal fos asks for them and says what to create on ${p.label}'s side`,
  );
}

export default function shopsConnect(ctx: Context): Command {
  const cmd = new Command('connect').description(`Connect a shop of a sales channel: ${PLATFORMS.map((p) => p.name).join(' | ')}`);
  for (const p of PLATFORMS) cmd.addCommand(platform(ctx, p));
  cmd.action(() => {
    throw new UsageError(`name the platform: ${PLATFORMS.map((p) => `fos shops connect ${p.name} …`).join(' | ')}`);
  });
  return declareOutput(cmd, local('without a platform it only says to name one'));
}
