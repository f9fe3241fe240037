import type { FastifyInstance } from 'fastify';
import express, { type NextFunction, type Request, type Response } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { FosOAuthProvider } from './provider.js';
import { OAUTH_PATHS } from './metadata.js';

/** The SDK's OAuth endpoints on one Express app (plugin.ts hands it the raw requests of their paths). */
export function buildHandlers(app: FastifyInstance, limited: boolean) {
  const provider = new FosOAuthProvider(app.db);
  const rateLimit = limited ? undefined : (false as const);
  const handlers = express();
  handlers.disable('x-powered-by');
  handlers.set('env', 'production'); // Express's own error pages never show a stack
  handlers.use(OAUTH_PATHS.authorize, authorizationHandler({ provider, rateLimit }));
  handlers.use(OAUTH_PATHS.token, tokenHandler({ provider, rateLimit }));
  handlers.use(
    OAUTH_PATHS.register,
    clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit, clientSecretExpirySeconds: 0 }),
  );
  handlers.use(OAUTH_PATHS.revoke, revocationHandler({ provider, rateLimit }));
  // A body the handlers' parsers refuse (bad JSON, too large) is an OAuth error, not a stack page.
  handlers.use((err: Error & { status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) app.log.error({ err, url: req.url }, 'OAuth endpoint failed');
    res.status(status).json({
      error: status === 500 ? 'server_error' : 'invalid_request',
      error_description: status === 500 ? 'Internal error' : err.message,
    });
  });

  return handlers;
}
