import { DomainError, invalid } from '../errors.js';
import { connectorFor } from '../../connectors/channels/registry.js';
import { ChannelCallError, assertAllowedUrl, type ChannelEnv } from '../../connectors/channels/http.js';
import type { ConnectionInput } from '../../connectors/channels/connector.js';
import type { OpenConnection } from '../../connectors/channels/types.js';

// The connection fields of a shop (docs/sales-channels.md): validated by the platform's
// connector, with defaults, and checked with one real platform call before anything is stored.

export type { ConnectionInput };

/** Validated connection fields for a platform, with defaults (api_base_url = the real address). */
export function connectionFields(shopType: string, c: ConnectionInput, env: ChannelEnv) {
  const f = connectorFor(shopType).fields(c);
  try {
    assertAllowedUrl(f.apiBase, env);
  } catch (err) {
    throw invalid('body.connection.api_base_url', (err as Error).message);
  }
  return f;
}

/** One real call to the platform; a refusal becomes a 400 that says what is wrong. */
export async function checkOrRefuse(conn: OpenConnection, env: ChannelEnv) {
  try {
    return await connectorFor(conn.shop_type).check(conn, env);
  } catch (err) {
    if (err instanceof ChannelCallError)
      throw new DomainError('validation-failed', `The ${conn.shop_type} connection check failed: ${err.message}.`, {
        errors: [{ path: 'body.connection', message: err.message }],
      });
    throw err;
  }
}
