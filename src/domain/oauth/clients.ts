import type { Db } from '../../db/types.js';

// Dynamically registered clients (RFC 7591). Every client is registered as public
// (token_endpoint_auth_method "none"): PKCE S256 protects its codes, so no client secret is
// issued and none has to be stored.

export type ClientInfo = Record<string, unknown> & { client_id: string; redirect_uris: string[]; client_name?: string };

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
  await db.prisma.oAuthClient.create({ data: { id: client.client_id, client_name: name, metadata: client as object } });
  return client;
}

export async function getClient(db: Db, clientId: string): Promise<ClientInfo | undefined> {
  if (clientId.length > 100) return undefined;
  const row = await db.prisma.oAuthClient.findUnique({ where: { id: clientId } });
  return row ? (row.metadata as ClientInfo) : undefined;
}

/** What the consent page and the connection list call a client. */
export const clientLabel = (client: { client_name?: unknown; client_id: string }) =>
  typeof client.client_name === 'string' && client.client_name.trim() ? client.client_name.trim().slice(0, 200) : `Client ${client.client_id.slice(0, 8)}`;
