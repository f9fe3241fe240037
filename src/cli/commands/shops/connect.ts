import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeCommand } from '../../shared/resource.js';
import { REQUIRED, SHOPIFY_FIELDS, SHOPIFY_TOKEN_REQUIRED, WOO_FIELDS, shopPath } from './fields.js';
import { declareOutput, local, response } from '../../output/shape.js';

function platform(ctx: Context, name: string, shopType: 'SHOPIFY' | 'WOOCOMMERCE', example: string): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ShopSchema),
    name,
    description: `Connect a ${shopType === 'SHOPIFY' ? 'Shopify' : 'WooCommerce'} shop (checked with one real call; credentials are stored sealed)`,
    method: 'POST',
    mode: 'create',
    // --oauth (Shopify): an install link of the server's app for the merchant, not a connection.
    path: (_args, opts) => (opts.oauth ? `${shopPath()}/shopify/install` : shopPath()),
    fields: shopType === 'SHOPIFY' ? SHOPIFY_FIELDS : WOO_FIELDS,
    configure: (cmd) => {
      if (shopType === 'SHOPIFY')
        cmd.option('--oauth', "print an install link of the server's Shopify app for this shop (OAuth; needs --shop-domain)");
    },
    transform: (body, opts) => {
      if (!opts.oauth) return { ...body, shop_type: shopType };
      const conn = (body.connection ?? {}) as Record<string, unknown>;
      if (!conn.shop_domain) throw new UsageError('--oauth needs --shop-domain <name.myshopify.com>');
      return {
        name: body.name,
        shop_domain: conn.shop_domain,
        ...(body.merchant_team_id ? { merchant_team_id: body.merchant_team_id } : {}),
      };
    },
    // On a terminal, what the flags left out is asked; secrets without echo.
    interactive: async (c, body) => {
      if (!body.shop_type) return; // --oauth: nothing secret to ask
      const conn = (body.connection ??= {}) as Record<string, unknown>;
      const asked = shopType === 'SHOPIFY' && conn.access_token ? SHOPIFY_TOKEN_REQUIRED : REQUIRED[shopType];
      for (const [key, flag, secret] of asked) {
        if (conn[key] !== undefined) continue;
        conn[key] = secret
          ? await c.prompt.password({ message: `${key.replace(/_/g, ' ')}:`, flag })
          : await c.prompt.input({ message: `${key.replace(/_/g, ' ')}:`, flag });
      }
    },
    after: async (c, record) => {
      const link = (record as { install_url?: string }).install_url;
      if (link) return c.io.info(`send this link to the merchant to install the app: ${link}`);
      const conn = (record as { connection?: { webhook_path?: string } }).connection;
      if (!conn?.webhook_path) return;
      // The server as this CLI reaches it; behind a TLS proxy, the platform needs the public https URL.
      const { base_url } = (await c.config.load()).resolve({ profile: c.options.profile, baseUrl: c.options.baseUrl });
      const root = base_url ? base_url.replace(/\/v1\/?$/, '') : '<your fos URL>';
      c.io.info(`webhook address for the platform: ${root}${conn.webhook_path}`);
    },
    examples: [example, `${example.split(' --')[0]} --data - < connection.json   # credentials from stdin`],
  });
}

export default function shopsConnect(ctx: Context): Command {
  const cmd = new Command('connect').description('Connect a shop of a sales channel: shopify | woocommerce');
  cmd.addCommand(
    platform(
      ctx,
      'shopify',
      'SHOPIFY',
      'fos shops connect shopify --name "My Shop" --shop-domain my-shop.myshopify.com --client-id … --client-secret …',
    ),
  );
  cmd.addCommand(
    platform(
      ctx,
      'woocommerce',
      'WOOCOMMERCE',
      'fos shops connect woocommerce --name "My Store" --store-url https://store.example --consumer-key ck_… --consumer-secret cs_… --webhook-secret …',
    ),
  );
  cmd.action(() => {
    throw new UsageError('name the platform: fos shops connect shopify … | fos shops connect woocommerce …');
  });
  return declareOutput(cmd, local('without a platform it only says to name one'));
}
