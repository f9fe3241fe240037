import type { FastifyInstance } from 'fastify';
import express, { type NextFunction, type Request, type Response } from 'express';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { FosOAuthProvider, ORIGIN, type WithOrigin } from './provider.js';
import { OAUTH_PATHS, registerMetadataRoutes } from './metadata.js';
import browserRoutes from './browser-routes.js';

// The OAuth 2.1 authorization server of /mcp (MCP authorization spec, spec 5.3). The protocol
// endpoints are the MCP SDK's own handlers (Express routers), mounted on one Express app that
// these Fastify routes hand the raw request to; Fastify does not parse their bodies.

export default async function oauthRoutes(app: FastifyInstance, opts: { rateLimit: boolean }) {
  const provider = new FosOAuthProvider(app.db);
  const rateLimit = opts.rateLimit ? undefined : (false as const);
  const handlers = express();
  handlers.disable('x-powered-by');
  handlers.set('env', 'production'); // Express's own error pages never show a stack
  handlers.use(OAUTH_PATHS.authorize, authorizationHandler({ provider, rateLimit }));
  handlers.use(OAUTH_PATHS.token, tokenHandler({ provider, rateLimit }));
  handlers.use(OAUTH_PATHS.register, clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit, clientSecretExpirySeconds: 0 }));
  handlers.use(OAUTH_PATHS.revoke, revocationHandler({ provider, rateLimit }));
  // A body the handlers' parsers refuse (bad JSON, too large) is an OAuth error, not a stack page.
  handlers.use((err: Error & { status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) app.log.error({ err, url: req.url }, 'OAuth endpoint failed');
    res.status(status).json({ error: status === 500 ? 'server_error' : 'invalid_request', error_description: status === 500 ? 'Internal error' : err.message });
  });

  await app.register(async (scope) => {
    // The SDK's handlers read the body themselves.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const url of Object.values(OAUTH_PATHS)) {
      scope.route({
        method: ['GET', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'],
        url,
        config: { public: true },
        schema: { hide: true },
        handler: (request, reply) => {
          (request.raw as WithOrigin)[ORIGIN] = app.originOf(request);
          reply.raw.setHeader('x-trace-id', String(request.id));
          reply.hijack();
          handlers(request.raw as Request, reply.raw as Response);
        },
      });
    }
  });

  registerMetadataRoutes(app);
  await app.register(async (scope) => {
    await scope.register(cookie);
    await scope.register(formbody, { bodyLimit: 64 * 1024 });
    await scope.register(browserRoutes);
  });
}
