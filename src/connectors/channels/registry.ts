import { ChannelCallError } from './http.js';
import type { ChannelConnector } from './connector.js';
import { bigcommerce } from './bigcommerce/index.js';
import { shopify } from './shopify/index.js';
import { woocommerce } from './woocommerce/index.js';
import { amazon } from './amazon/index.js';
import { ebay } from './ebay/index.js';
import { etsy } from './etsy/index.js';

// Every sales-channel connector, keyed by its shop type. Adding a platform is a folder beside
// these and one line here; the domain and the server find it by the shop's type.

const CONNECTORS: Record<string, ChannelConnector> = Object.fromEntries(
  [shopify, woocommerce, bigcommerce, amazon, ebay, etsy].map((c) => [c.platform, c]),
);

/** The shop types fos connects to. */
export const connectedPlatforms = () => Object.keys(CONNECTORS);

/** The connector of a shop type, or null (MANUAL, or a platform without one yet). */
export const connectorOrNull = (shopType: string): ChannelConnector | null => CONNECTORS[shopType] ?? null;

export function connectorFor(shopType: string): ChannelConnector {
  const c = connectorOrNull(shopType);
  if (!c) throw new ChannelCallError(`no connector for ${shopType} yet`, true);
  return c;
}
