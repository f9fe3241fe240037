import type { Db } from '../../db/types.js';
import { findClient, insertClient } from './store.js';

// Dynamically registered clients (RFC 7591). Every client is registered as public
// (token_endpoint_auth_method "none"): PKCE S256 protects its codes, so no client secret is
// issued and none has to be stored.

export type ClientInfo = Record<string, unknown> & { client_id: string; redirect_uris: string[]; client_name?: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
// A private-use scheme (RFC 8252 §7.1) names a domain its owner controls, reversed: com.example.app.
const PRIVATE_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;

/**
 * Why a redirect URI is refused, or undefined when it may be registered: https anywhere, http only
 * on loopback (RFC 8252 §7.3), or a reverse-domain private-use scheme (§7.1); never a fragment
 * (RFC 6749 §3.1.2), credentials, nor schemes such as file:, javascript: or data:.
 */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri.length > 2000) return 'must be a URL of at most 2,000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not a URL';
  }
  if (uri.includes('#')) return 'must not have a fragment (#)';
  if (url.username || url.password) return 'must not carry credentials';
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === 'https') return url.hostname ? undefined : 'must name a host';
  if (scheme === 'http')
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : 'may use http only on a loopback address (127.0.0.1, [::1], localhost); use https';
  if (PRIVATE_SCHEME.test(scheme)) return undefined;
  return 'must be https, http on loopback, or a private-use scheme in reverse-domain form (com.example.app:/callback)';
}

export async function registerClient(db: Db, info: Record<string, unknown> & { client_id?: string }): Promise<ClientInfo> {
  const { client_secret: _secret, client_secret_expires_at: _expiry, ...rest } = info;
  const client = {
    ...rest,
    client_id: info.client_id!,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  } as unknown as ClientInfo;
  const name = typeof client.client_name === 'string' ? client.client_name.slice(0, 200) : null;
  await insertClient(db.prisma, { id: client.client_id, client_name: name, metadata: client as object });
  return client;
}

export async function getClient(db: Db, clientId: string): Promise<ClientInfo | undefined> {
  if (clientId.length > 100) return undefined;
  const row = await findClient(db.prisma, clientId);
  return row ? (row.metadata as ClientInfo) : undefined;
}

/** What the consent page and the connection list call a client. */
export const clientLabel = (client: { client_name?: unknown; client_id: string }) =>
  typeof client.client_name === 'string' && client.client_name.trim()
    ? client.client_name.trim().slice(0, 200)
    : `Client ${client.client_id.slice(0, 8)}`;
