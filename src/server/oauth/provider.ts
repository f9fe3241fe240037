import type { Response } from 'express';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Db } from '../../db/types.js';
import { clients } from '../../domain/oauth/index.js';
import { consentPath, ORIGIN, resourceUrl, type WithOrigin } from './metadata.js';
import { authorizations } from '../../domain/oauth/index.js';
import { accessTokenPrincipal, isAccessToken, revokeByToken, rotateRefreshToken } from '../../domain/oauth/index.js';

// The MCP SDK's OAuth handlers (authorize, token, register, revoke) validate the protocol —
// client and redirect_uri checks, PKCE S256, grant types, error responses; this provider is
// where they meet fos's data: everything it does is one call into src/domain/oauth.

/** RFC 8707: the only resource these tokens are for is this server's /mcp. */
function checkResource(resource: URL | undefined, origin: string): string | undefined {
  if (!resource) return undefined;
  const href = resource.href.replace(/\/$/, '');
  if (href !== resourceUrl(origin)) throw new InvalidTargetError(`This server issues tokens only for ${resourceUrl(origin)}.`);
  return href;
}

export class FosOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(private readonly db: Db) {
    this.clientsStore = {
      getClient: (id) => clients.getClient(db, id) as Promise<OAuthClientInformationFull | undefined>,
      registerClient: (info) => {
        const uris = Array.isArray(info.redirect_uris) ? info.redirect_uris : [];
        for (const [i, uri] of uris.entries()) {
          const problem = clients.redirectUriProblem(uri);
          if (problem) throw new InvalidClientMetadataError(`redirect_uris[${i}] ${problem}.`);
        }
        return clients.registerClient(db, info as Record<string, unknown>) as Promise<OAuthClientInformationFull>;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const origin = (res.req as WithOrigin)[ORIGIN]!;
    const resource = checkResource(params.resource, origin);
    const id = await authorizations.beginAuthorization(this.db, {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      state: params.state,
      resource: resource ?? resourceUrl(origin),
      scopes: params.scopes,
    });
    res.redirect(302, consentPath(id));
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const challenge = await authorizations.challengeForCode(this.db, client.client_id, code);
    if (!challenge) throw new InvalidGrantError('The authorization code is unknown, expired or was issued to another client.');
    return challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const tokens = await authorizations.exchangeCode(this.db, client.client_id, code, redirectUri, resource?.href.replace(/\/$/, ''));
    if (!tokens)
      throw new InvalidGrantError('The authorization code is invalid, expired, already used, or does not match redirect_uri or resource.');
    return tokens;
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const tokens = await rotateRefreshToken(this.db, client.client_id, refreshToken, resource?.href.replace(/\/$/, '') ?? null);
    if (!tokens) throw new InvalidGrantError('The refresh token is invalid, expired, revoked or already used.');
    return tokens;
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const p = isAccessToken(token) ? await accessTokenPrincipal(this.db, token) : null;
    if (!p?.connection) throw new InvalidTokenError('The access token is unknown, expired or revoked.');
    return {
      token,
      clientId: p.connection.id,
      scopes: ['mcp'],
      expiresAt: p.expiresAt ? Math.floor(p.expiresAt.getTime() / 1000) : undefined,
      resource: p.connection.resource ? new URL(p.connection.resource) : undefined,
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    await revokeByToken(this.db, client.client_id, request.token);
  }
}
