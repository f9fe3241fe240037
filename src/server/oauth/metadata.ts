import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

// Discovery for MCP clients: protected resource metadata (RFC 9728), named by /mcp's 401, points
// at this server as the authorization server, whose metadata (RFC 8414) lists its endpoints.
// Built per request from the origin, so a server reached by several names answers each.

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

export const SCOPES = ['mcp'];

/** The origin the request was made to, set by plugin.ts before the SDK's handlers run. */
export const ORIGIN = Symbol('fos.origin');
export type WithOrigin = IncomingMessage & { [ORIGIN]?: string };

export const resourceUrl = (origin: string) => `${origin}/mcp`;
export const consentPath = (requestId: string) => `/oauth/consent?request=${encodeURIComponent(requestId)}`;

export const protectedResourceMetadataUrl = (origin: string) => `${origin}/.well-known/oauth-protected-resource/mcp`;

export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: origin + OAUTH_PATHS.authorize,
    token_endpoint: origin + OAUTH_PATHS.token,
    registration_endpoint: origin + OAUTH_PATHS.register,
    revocation_endpoint: origin + OAUTH_PATHS.revoke,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    // Every client is public: PKCE protects its codes and no client secret is issued.
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: SCOPES,
    service_documentation: `${origin}/v1/swagger.json`,
  };
}

export function protectedResourceMetadata(origin: string) {
  return {
    resource: resourceUrl(origin),
    authorization_servers: [origin],
    scopes_supported: SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'fos agent tools',
  };
}

const cors = (reply: FastifyReply) =>
  reply
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', 'GET, OPTIONS')
    .header('access-control-allow-headers', 'mcp-protocol-version');

export function registerMetadataRoutes(app: FastifyInstance) {
  const routes: [string, (origin: string) => object][] = [
    ['/.well-known/oauth-authorization-server', authorizationServerMetadata],
    ['/.well-known/oauth-protected-resource/mcp', protectedResourceMetadata],
    // Clients that look at the root for the resource's metadata find the same document.
    ['/.well-known/oauth-protected-resource', protectedResourceMetadata],
  ];
  for (const [url, build] of routes) {
    const config = { public: true };
    app.get(url, { config, schema: { hide: true } }, async (request, reply) => {
      cors(reply).header('cache-control', 'public, max-age=300');
      return build(app.originOf(request));
    });
    app.options(url, { config, schema: { hide: true } }, async (_request, reply) => cors(reply).code(204).send());
  }
}
