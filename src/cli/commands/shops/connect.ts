import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeCommand } from '../../shared/resource.js';
import { REQUIRED, SHOPIFY_FIELDS, WOO_FIELDS, shopPath } from './fields.js';
import { declareOutput, local, response } from '../../output/shape.js';

function platform(ctx: Context, name: string, shopType: 'SHOPIFY' | 'WOOCOMMERCE', example: string): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/shops.js')).ShopSchema),
    name,
    description: `Connect a ${shopType === 'SHOPIFY' ? 'Shopify' : 'WooCommerce'} shop (checked with one real call; credentials are stored sealed)`,
    method: 'POST',
    mode: 'create',
    path: () => shopPath(),
    fields: shopType === 'SHOPIFY' ? SHOPIFY_FIELDS : WOO_FIELDS,
    transform: (body) => ({ ...body, shop_type: shopType }),
    // On a terminal, what the flags left out is asked; secrets without echo.
    interactive: async (c, body) => {
      const conn = (body.connection ??= {}) as Record<string, unknown>;
      for (const [key, flag, secret] of REQUIRED[shopType]) {
        if (conn[key] !== undefined) continue;
        conn[key] = secret
          ? await c.prompt.password({ message: `${key.replace(/_/g, ' ')}:`, flag })
          : await c.prompt.input({ message: `${key.replace(/_/g, ' ')}:`, flag });
      }
    },
    after: async (c, record) => {
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
      'fos shops connect shopify --name "My Shop" --shop-domain my-shop.myshopify.com --access-token shpat_… --webhook-secret …',
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
