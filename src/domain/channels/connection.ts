import type { Db, ShopConnection } from '../../db/types.js';
import { openJson, sealJson } from '../secrets/index.js';
import type { ConnectedPlatform, ConnectionSettings, Credentials, OpenConnection } from '../../connectors/channels/types.js';
import type { ChannelEnv } from '../../connectors/channels/http.js';
import { connectorOrNull } from '../../connectors/channels/registry.js';
import { replaceCredentials } from './store/connections.js';

// A shop's connection row opened for a connector (src/connectors/channels/registry.ts): its
// credentials unsealed in memory, its settings with defaults. The connectors themselves are
// reached only through the registry, so intake, sync and pushes never branch on the platform.
export { connectorFor } from '../../connectors/channels/registry.js';

export const sealContext = (shopId: string) => `shop:${shopId}`;
export const sealCredentials = (shopId: string, credentials: Credentials) => sealJson(credentials, sealContext(shopId));

export const DEFAULT_SETTINGS: ConnectionSettings = {
  notify_customer: false,
  location_id: null,
  warehouse_id: null,
  ship_on_authorized: false,
  shipment_tracking: false,
};

/**
 * The connection with its credentials opened (in memory only, never returned or logged). With a
 * database, renewed credentials (a refreshed Shopify token) are written back sealed, compare-and-
 * set on the sealed value read, so a concurrent change of the connection is never overwritten.
 */
export function openConnection(row: ShopConnection, db?: Db): OpenConnection {
  let sealed = row.credentials;
  const persistCredentials = db
    ? async (c: Credentials) => {
        const next = sealCredentials(row.shop_id, c);
        const r = await replaceCredentials(db.prisma, row.shop_id, sealed, next);
        if (r.count) sealed = next;
      }
    : undefined;
  return {
    persistCredentials,
    shop_id: row.shop_id,
    shop_type: row.shop_type as ConnectedPlatform,
    shop_domain: row.shop_domain,
    api_base_url: row.api_base_url,
    api_version: row.api_version,
    credentials: openJson<Credentials>(row.credentials, sealContext(row.shop_id)),
    settings: { ...DEFAULT_SETTINGS, ...(row.settings as Partial<ConnectionSettings>) },
  };
}

export type UnregisterLog = { info(o: object, m: string): void; warn(o: object, m: string): void };

/**
 * What the connector set up on the platform (BigCommerce's order webhooks) is removed there once
 * the shop is gone here: best effort, the outcome logged. A failure leaves a hook calling a shop
 * fos no longer has (refused, 401), never a shop kept because its platform did not answer.
 */
export async function unregisterShop(row: ShopConnection, env: ChannelEnv, log?: UnregisterLog) {
  const connector = connectorOrNull(row.shop_type);
  if (!connector?.unregister) return;
  try {
    const done = await connector.unregister(openConnection(row), env);
    log?.info({ shop_id: row.shop_id, shop_type: row.shop_type }, `shop deleted: ${done}`);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    log?.warn({ shop_id: row.shop_id, shop_type: row.shop_type, err: why }, `shop deleted, but its platform registration stays: ${why}`);
  }
}
