import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import { DomainError } from '../../domain/errors.js';
import { floorRefresh, floorResource, floorSignIn, floorSignOut } from '../../domain/floor/index.js';
import { FloorRefreshBody, FloorSessionSchema, FloorSignInBody, FloorTokensSchema } from '../../contract/floor.js';
import { UnauthLimiter } from '../rate-limit/unauth.js';

// The /floor page (issue 28, docs/floor.md): a static page for handheld scanners and phones,
// plain HTML, CSS and ES modules kept in src/server/floor/ and read from there (no build step;
// `fos serve` runs from a checkout, as it reads prisma/migrations), plus its sign-in endpoints.
// Its data calls are the public API's, made with the token a sign-in returns.

const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'floor.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'api.js': 'text/javascript; charset=utf-8',
  'scan.js': 'text/javascript; charset=utf-8',
  'ui.js': 'text/javascript; charset=utf-8',
  'pick.js': 'text/javascript; charset=utf-8',
  'pack.js': 'text/javascript; charset=utf-8',
  'ship.js': 'text/javascript; charset=utf-8',
};

// Compiled, this module is dist/server/routes/floor.js; from source (tests), src/server/routes.
const ASSET_DIR = [new URL('../floor/', import.meta.url), new URL('../../../src/server/floor/', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((dir) => existsSync(`${dir}index.html`));

// Only this server's own files and API: no inline script, no third-party origin. The camera's
// stream is shown through a MediaStream (srcObject), which media-src does not govern.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const cache = new Map<string, Buffer>();

async function sendAsset(reply: FastifyReply, name: string) {
  if (!ASSET_DIR) throw new DomainError('not-found', 'The /floor page is not in this installation (src/server/floor).');
  let body = cache.get(name);
  if (!body) cache.set(name, (body = await readFile(`${ASSET_DIR}${name}`)));
  return reply
    .header('content-type', ASSETS[name])
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('permissions-policy', 'camera=(self), microphone=(), geolocation=()')
    .header('cache-control', 'no-cache')
    .send(body);
}

const page = { config: { public: true }, schema: { hide: true } };

export default async function floorRoutes(app: FastifyInstance) {
  const failures = new UnauthLimiter(20);

  app.get('/floor', page, async (_request, reply) => sendAsset(reply, 'index.html'));
  app.get('/floor/:asset', page, async (request, reply) => {
    const { asset } = request.params as { asset: string };
    if (!Object.hasOwn(ASSETS, asset) || asset === 'index.html') throw new DomainError('not-found', `/floor/${asset} was not found.`);
    return sendAsset(reply, asset);
  });

  app.post(
    '/floor/session',
    { config: { public: true }, schema: { hide: true, body: FloorSignInBody, response: { 201: FloorSessionSchema } } },
    async (request, reply) => {
      const body = request.body as Static<typeof FloorSignInBody>;
      const now = Date.now();
      const wait = failures.retryAfter(request.ip, now);
      if (wait) {
        reply.header('retry-after', wait);
        throw new DomainError('rate-limited', `Too many failed sign-ins from this address; try again in ${wait} s.`);
      }
      const session = await floorSignIn(app.db, {
        email: body.email,
        password: body.password,
        teamId: body.team_id,
        resource: floorResource(app.originOf(request)),
        device: request.headers['user-agent'],
      });
      if (!session) {
        failures.fail(request.ip, now);
        throw new DomainError('unauthorized', 'Wrong email or password, or the account is disabled.');
      }
      return reply.code(201).send(session);
    },
  );

  app.post(
    '/floor/session/refresh',
    { config: { public: true }, schema: { hide: true, body: FloorRefreshBody, response: { 200: FloorTokensSchema } } },
    async (request) => {
      const { refresh_token } = request.body as Static<typeof FloorRefreshBody>;
      const tokens = await floorRefresh(app.db, refresh_token, floorResource(app.originOf(request)));
      if (!tokens) throw new DomainError('unauthorized', 'The sign-in has ended; sign in again.');
      return tokens;
    },
  );

  app.delete('/floor/session', { config: { permission: null }, schema: { hide: true } }, async (request, reply) => {
    const connection = request.principal.connection;
    if (!connection || connection.resource !== floorResource(app.originOf(request)))
      throw new DomainError('forbidden', 'Only a /floor sign-in can be signed out here.');
    await floorSignOut(app.db, connection.id);
    return reply.code(204).send();
  });
}
