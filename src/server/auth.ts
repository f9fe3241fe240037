import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import type { Principal, PrincipalResolver } from '../domain/keys/index.js';
import type { Permission } from '../contract/permissions.js';
import { TIER_LIMITS, type RateLimitStore } from './rate-limit/stores.js';
import type { UnauthLimiter } from './rate-limit/unauth.js';
import { sendProblem } from './problem.js';
import { floorResource } from '../domain/floor/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Permission the operation requires; null = any valid key. Absent with public: no auth. */
    permission?: Permission | null;
    /** Path family: ops serves fulfiller keys, merchant serves merchant keys. */
    family?: 'ops' | 'merchant';
    /** No authentication (OpenAPI document). */
    public?: boolean;
    /** Token comes as Authorization: Bearer (agent-tool endpoint). */
    bearer?: boolean;
    /**
     * Not counted against the caller's rate tier: the agent endpoint's handshake, listing and
     * search. Its executes are counted, each as the in-process request it makes.
     */
    uncounted?: boolean;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

const FAMILY_KIND = { ops: 'FULFILLER', merchant: 'MERCHANT' } as const;

// In-process requests made by the agent-tool endpoint (execute_svc_operation) carry this
// per-process random secret, which never leaves the process. It marks them as the agent
// endpoint's own, so an agent connection's token (valid only at /mcp) is accepted for them.
// They are counted like any request: an execute is an operation, the unit of agent budgets.
const INNER_CALL_HEADER = 'x-fos-inner-call';
const INNER_CALL_SECRET = randomBytes(32).toString('hex');
export const innerCallHeaders = () => ({ [INNER_CALL_HEADER]: INNER_CALL_SECRET });

export function isInnerCall(request: FastifyRequest): boolean {
  const value = request.headers[INNER_CALL_HEADER];
  return (
    typeof value === 'string' &&
    value.length === INNER_CALL_SECRET.length &&
    timingSafeEqual(Buffer.from(value), Buffer.from(INNER_CALL_SECRET))
  );
}

export function tokenOf(request: FastifyRequest, bearer: boolean): string | undefined {
  if (bearer) {
    const header = request.headers.authorization;
    const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    return m?.[1];
  }
  const token = request.headers['x-access-token'];
  return Array.isArray(token) ? token[0] : token;
}

/** Authenticates, counts against the key's rate tier, then checks family and permission. */
export function registerAuth(
  app: FastifyInstance,
  resolver: PrincipalResolver,
  limiter: RateLimitStore,
  unauth: UnauthLimiter,
  clock: () => number = Date.now,
) {
  app.decorateRequest('principal', null as unknown as Principal);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.public || request.is404) return;

    const token = tokenOf(request, Boolean(config.bearer));
    const now = clock();
    // An address over its limit of failed authentications is refused without a database read
    // only for tokens that cannot be valid (missing, malformed, recently found unknown). Any other
    // token is looked up (cached by hash), so a valid key is never refused by this limiter: not
    // behind a NAT shared with whoever is flooding, nor after a key change cleared the cache.
    const refuse = () => {
      const wait = unauth.retryAfter(request.ip, now);
      if (!wait) return false;
      reply.header('retry-after', wait);
      void sendProblem(
        request,
        reply,
        'rate-limited',
        `Too many requests with a missing or invalid API key from this address (${unauth.limit} a minute); retry in ${wait} s.`,
      );
      return true;
    };
    if (!resolver.mayBeValid(token) && refuse()) return reply;
    let principal: Principal;
    try {
      if (config.bearer && !token) throw new DomainError('unauthorized', 'Send the API key as Authorization: Bearer <API key>.');
      principal = await resolver.resolve(token);
    } catch (err) {
      if (!(err instanceof DomainError && err.kind === 'unauthorized')) throw err;
      if (refuse()) return reply; // only failures count, and they are not counted once refused
      unauth.fail(request.ip, now);
      throw err;
    }
    if (principal.connection) {
      // A /floor page sign-in's token (resource <origin>/floor) is for the API the page calls, and
      // only that; an agent connection's token only for /mcp (and the calls its executes make).
      const floor = principal.connection.resource === floorResource(app.originOf(request));
      if (floor && config.bearer)
        throw new DomainError('unauthorized', "A /floor sign-in's access token works only for the API, not at the agent endpoint.");
      if (!floor && !config.bearer && !isInnerCall(request)) {
        throw new DomainError(
          'unauthorized',
          "An agent connection's access token works only at the agent endpoint (/mcp); use an API key here.",
        );
      }
    }
    request.principal = principal;
    // Request logs retain which key called (never the token), as spec 5.1 asks of request metrics;
    // an agent connection's calls carry the connection and its person.
    const caller = principal.connection
      ? { connection_id: principal.connection.id, connection_name: principal.keyName, user_id: principal.connection.userId }
      : { key_id: principal.keyId, key_name: principal.keyName };
    // The request's logger is its own (Fastify made it for this request's trace id): pino adds the
    // fields to it in place, cheaper than a second child logger per request. The silent logger
    // (logger: false) has no setBindings and nothing to add them to.
    const log = request.log as typeof request.log & { setBindings?: (b: object) => void };
    if (log.setBindings) log.setBindings(caller);
    else request.log = request.log.child(caller);
    reply.log = request.log; // Fastify's "request completed" line is written through reply.log

    if (!config.uncounted) {
      const limit = TIER_LIMITS[principal.tier] ?? TIER_LIMITS[1];
      const hit = await limiter.hit(principal.keyId, now, limit);
      const resetSeconds = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
      reply.header('x-ratelimit-limit', limit);
      reply.header('x-ratelimit-remaining', Math.max(0, limit - hit.count));
      reply.header('x-ratelimit-reset', resetSeconds);
      if (hit.count > limit) {
        reply.header('retry-after', resetSeconds);
        return sendProblem(
          request,
          reply,
          'rate-limited',
          `Rate limit of ${limit} requests per 60 seconds exceeded for this ${principal.connection ? 'agent connection' : 'key'} (tier ${principal.tier}); retry in ${resetSeconds} s.`,
        );
      }
    }

    if (config.family && principal.teamKind !== FAMILY_KIND[config.family]) {
      throw new DomainError(
        'forbidden',
        `The /${config.family} paths serve ${FAMILY_KIND[config.family].toLowerCase()} teams; this key belongs to a ${principal.teamKind.toLowerCase()} team.`,
      );
    }
    if (config.permission && !principal.permissions.has(config.permission)) {
      throw new DomainError('forbidden', `This key lacks the ${config.permission} permission this operation requires.`);
    }
  });
}
