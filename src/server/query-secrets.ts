import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { DomainError } from '../domain/errors.js';

// Secrets sent in a query string end up in logs, proxies and browser history. The server refuses
// them (401 naming the header to use) and, because the refused request is still logged, every log
// line shows such query parameters as [REDACTED].

/** Query parameter names (compared case-insensitively, `-`/`_` alike) that carry credentials. */
const SECRET_PARAMS = new Set([
  'x_access_token',
  'access_token',
  'token',
  'api_key',
  'apikey',
  'key',
  'auth',
  'authorization',
  'bearer',
  'secret',
  'password',
  'id_token',
  'refresh_token',
  'client_secret',
  'signature',
  'sig',
]);

/**
 * Accepted where a platform can only authenticate by URL (Shippo's webhook token; an OAuth
 * callback's one-time code and its state, which alone finds an Etsy authorization; BigCommerce's
 * signed_payload_jwt to its app's callbacks), never logged.
 */
const REDACTED_ONLY = new Set(['shippo_token', 'code', 'state', 'signed_payload_jwt']);

const normalized = (name: string) => {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    /* keep raw */
  }
  // Array and object forms (token[]=, api_key[0]=, token[a]=) are the same credential to many parsers.
  return decoded.trim().replace(/\[.*$/s, '').trim().toLowerCase().replaceAll('-', '_');
};

// A plain lower-case name (limit, cursor, order_by: nearly every parameter) is its own normal form.
const PLAIN = /^[a-z0-9_]*$/;
const normalName = (name: string) => (PLAIN.test(name) ? name : normalized(name));
const isSecretParam = (name: string) => SECRET_PARAMS.has(normalName(name));

/** The URL with the values of credential-like query parameters replaced by [REDACTED]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return (isSecretParam(name) || REDACTED_ONLY.has(normalName(name))) && eq >= 0 ? `${name}=[REDACTED]` : pair;
    });
  return `${url.slice(0, q)}?${query.join('&')}`;
}

/** The first credential-like parameter name in the URL's query string, if any. */
export function secretParamIn(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  for (const pair of url.slice(q + 1).split('&')) {
    const name = pair.split('=')[0];
    if (isSecretParam(name)) return name;
  }
  return undefined;
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** Logger options with the credential headers redacted and request URLs' query secrets masked. */
export function safeLoggerOptions(options: LoggerOptions = {}): LoggerOptions {
  const given = options as { redact?: string[] | { paths: string[] }; serializers?: Record<string, unknown> };
  const redactPaths = Array.isArray(given.redact) ? given.redact : (given.redact?.paths ?? []);
  return {
    ...options,
    redact: [...new Set([...redactPaths, 'req.headers["x-access-token"]', 'req.headers.authorization', 'req.headers.cookie'])],
    serializers: {
      ...given.serializers,
      req: (req: { method?: string; url?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        hostname: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  } as LoggerOptions;
}

/** Refuses credentials in query strings on every route (before authentication and routing). */
export function refuseQuerySecrets(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const name = secretParamIn(request.url);
    if (!name) return done();
    done(
      new DomainError(
        'unauthorized',
        `Credentials are not accepted in the query string (parameter "${name}"); send the API key in the x-access-token header (Authorization: Bearer <key> for /mcp), and rotate the key if this URL was shared or logged.`,
      ),
    );
  });
}
