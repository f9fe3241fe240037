import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import { OAUTH_PATHS, ORIGIN, registerMetadataRoutes, type WithOrigin } from './metadata.js';
import browserRoutes from './browser-routes.js';

// The OAuth 2.1 authorization server of /mcp (MCP authorization spec, spec 5.3). The protocol
// endpoints are the MCP SDK's own handlers (Express routers), mounted on one Express app that
// these Fastify routes hand the raw request to; Fastify does not parse their bodies.

export default async function oauthRoutes(app: FastifyInstance, opts: { rateLimit: boolean }) {
  // Express, the SDK's handlers and zod (~30 MiB) load with the first OAuth request, not at start.
  let handlers: Promise<(req: IncomingMessage, res: ServerResponse) => void> | undefined;
  const oauthHandlers = () => (handlers ??= import('./handlers.js').then((m) => m.buildHandlers(app, opts.rateLimit)));
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
        handler: async (request, reply) => {
          const handle = await oauthHandlers();
          (request.raw as WithOrigin)[ORIGIN] = app.originOf(request);
          reply.raw.setHeader('x-trace-id', String(request.id));
          reply.hijack();
          handle(request.raw, reply.raw);
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
