import { labelBatchRunner, type LabelBatchRunner } from './workers/label-batches.js';
import { shopifyAppFromEnv, type ShopifyAppConfig } from '../connectors/channels/shopify/oauth.js';
import { bigcommerceAppFromEnv, type BigCommerceAppConfig } from '../connectors/channels/bigcommerce/app.js';
import { setOutboundLogger } from '../net/outbound.js';
import { withOutboundScope } from '../net/deadlines.js';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchemaValidationError,
  type FastifyServerOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Db } from '../db/types.js';
import { storageFor, type FileStorage } from '../domain/files/index.js';
import { defaultFilesDir } from './data-dir.js';
import { FileProcessor } from './workers/files.js';
import { PrincipalResolver } from '../domain/keys/index.js';
import { accessTokenPrincipal, isAccessToken } from '../domain/oauth/index.js';
import '../domain/subscriptions.js';
import { registerAuth } from './auth.js';
import { registerAudit } from './audit.js';
import { DEFAULT_UNAUTH_LIMIT, UnauthLimiter } from './rate-limit/unauth.js';
import { refuseQuerySecrets, safeLoggerOptions } from './query-secrets.js';
import { registerOpenApi, registerOpenApiRoute } from './openapi.js';
import { clientErrorResponse, frameworkErrors, newTraceId, registerProblemHandlers, sendProblem } from './problem.js';
import { MemoryStore, RefusingStore, type RateLimitStore } from './rate-limit/stores.js';
import { buildSerializer } from './serializer.js';
import { registerRoutes } from './routes/index.js';
import mcpRoutes from './mcp/plugin.js';
import { buildCatalog, type Catalog, type OpenApiDocument } from './mcp/catalog.js';
import oauthRoutes from './oauth/plugin.js';
import { VERSION } from '../version.js';
import { healthRoutes } from './health.js';
import { metricsRoutes } from './metrics.js';
import { nowOf } from '../shared/clock.js';

export interface AppConfig {
  /** Fastify logger options; false silences logs (tests). */
  logger?: FastifyServerOptions['logger'];
  rateLimitStore?: RateLimitStore;
  /** How long a resolved key stays cached (ms). */
  authCacheTtlMs?: number;
  bodyLimit?: number;
  /** Webhook endpoints may point at loopback/private addresses (fos serve --allow-private-webhooks). */
  allowPrivateWebhooks?: boolean;
  /** Failed authentications allowed per client address per minute (0: no limit; default 120). */
  unauthRateLimit?: number;
  /** Where uploaded files are kept: a directory (default <data dir>/files) or s3://bucket/prefix. */
  storage?: string;
  /** Largest upload accepted, in bytes (default 25 MiB). */
  maxUploadBytes?: number;
  /**
   * The URL people and agents reach this server at (fos serve --public-url), e.g. behind a TLS
   * proxy; OAuth metadata, the /mcp resource and cookies' Secure flag follow it. Default: the
   * request's own protocol and Host.
   */
  publicUrl?: string;
  /**
   * Reverse proxies whose X-Forwarded-For is believed (fos serve --trust-proxy): their addresses
   * or CIDRs, or a number of hops. The limiter of failed authentications and the logs then see
   * the client's address instead of the proxy's. Default: none (the socket's peer).
   */
  trustProxy?: string[] | number;
  /** The rate limiters', the key cache's and the automation rules' clock (epoch ms); tests fix it so a window cannot end mid-test. */
  clock?: () => number;
  /** Per-address limits of the OAuth endpoints (the MCP SDK's defaults); false turns them off (tests). */
  oauthRateLimit?: boolean;
  /** Serves GET /metrics to scrapers sending this token as a bearer token (fos serve --metrics-token); unset: no /metrics. */
  metricsToken?: string;
  /** GET /readyz on SQLite: the least free disk space (bytes; default 100 MiB, 0: no check). */
  minFreeDiskBytes?: number;
  /** The 3PL's Shopify app for OAuth installs; default from FOS_SHOPIFY_CLIENT_ID/SECRET (null: none). */
  shopifyApp?: ShopifyAppConfig | null;
  /** The 3PL's BigCommerce single-click app; default from FOS_BIGCOMMERCE_CLIENT_ID/SECRET (null: none). */
  bigcommerceApp?: BigCommerceAppConfig | null;
}

export interface AppDeps {
  db: Db;
  config?: AppConfig;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body validator is compiled when the server starts listening (compileValidatorsAtStart), not by the first request. */
    compileAtStart?: boolean;
  }
  interface FastifyInstance {
    /** Compiles the body validators of routes with config.compileAtStart; returns how many. */
    compileValidatorsAtStart(): number;
    db: Db;
    principals: PrincipalResolver;
    allowPrivateWebhooks: boolean;
    /** The 3PL's Shopify app (OAuth installs), or null. */
    shopifyApp: ShopifyAppConfig | null;
    /** The 3PL's BigCommerce app (single-click installs), or null. */
    bigcommerceApp: BigCommerceAppConfig | null;
    /** The clock of what runs by the calendar (invoices' dates, the period close): AppConfig.clock, else the system's. */
    now(): Date;
    /** Set when shutdown begins: new requests get 503. */
    draining: boolean;
    /** Uploaded files: where their bytes are, the largest accepted, the image processor. */
    files: { storage: FileStorage; maxUploadBytes: number; processor: FileProcessor };
    /** The origin a request reached this server at: --public-url, else its protocol and Host. */
    originOf(request: FastifyRequest): string;
    /** The operation catalog of the agent tools and the consent page, built once on first use. */
    agentCatalog(): Catalog;
    /** Per-key request counters (auth.ts); exports charge long streams to them as they go. */
    rateLimiter: RateLimitStore;
    /** The clock the rate limits count by (epoch ms): config.clock, else Date.now. */
    clock(): number;
    /** Works label batches (workers/label-batches.ts): kicked on create, started by serve. */
    labelBatches: LabelBatchRunner;
  }
}

export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

// Bodies are validated strictly (no coercion, unknown fields rejected); query strings and
// path parameters arrive as text, so those coerce ("20" -> 20, "true" -> true).
function validators() {
  const common = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false } as const;
  const strict = new Ajv({ ...common, coerceTypes: false });
  const coercing = new Ajv({ ...common, coerceTypes: 'array' });
  for (const ajv of [strict, coercing]) (addFormats as unknown as (a: Ajv) => void)(ajv);
  return { strict, coercing };
}

/**
 * A multipart body is read by its route as a stream (@fastify/multipart), so there is nothing to
 * validate beforehand: its schema (marked x-multipart) only documents the form in OpenAPI.
 */
function isMultipartSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as Record<string, unknown>)['x-multipart'] === true;
}

type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * A route's validator, compiled by Ajv when its first request arrives rather than when the app
 * is readied: a server holds only the validators of the operations it is asked for (the ~300
 * route schemas compiled up front cost ~15 MiB of heap and start-up time). Fastify reads
 * `errors` from the function it was given, so the compiled one's are copied onto it.
 */
function lazyValidator(compile: () => Validator): Validator & { compile(): void } {
  let compiled: Validator | undefined;
  const validate: Validator = (data) => {
    compiled ??= compile();
    const ok = compiled(data);
    validate.errors = compiled.errors;
    return ok;
  };
  return Object.assign(validate, {
    compile: () => {
      compiled ??= compile();
    },
  });
}

/**
 * One log line a request, when it is answered: method, URL, client address, status and duration
 * together (Fastify writes two, "incoming request" and "request completed"), at half the logging
 * cost (docs/performance.md, "List pages as shipped"). Error, not-found and stream logs are
 * Fastify's own. reply.log carries the caller's key once authenticated (auth.ts).
 */
class OneLineLogController extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** A number of hops trusts that many proxies nearest the server, whatever their addresses (as Fastify does). */
function trustProxyOption(trust: string[] | number) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

export async function buildApp({ db, config = {} }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Whatever logger options the caller gives, credentials never reach a log line.
    logger:
      config.logger === false
        ? false
        : safeLoggerOptions(typeof config.logger === 'object' ? config.logger : { level: process.env.FOS_LOG_LEVEL ?? 'info' }),
    genReqId: () => newTraceId(),
    // Log lines carry the trace id that error details show as the support reference.
    logController: new OneLineLogController({ requestIdLogLabel: 'trace_id' }),
    bodyLimit: config.bodyLimit ?? 1024 * 1024,
    ...(config.trustProxy !== undefined ? { trustProxy: trustProxyOption(config.trustProxy) } : {}),
    frameworkErrors,
    // Long ids reach the schemas (and get a 400) instead of failing in the router.
    routerOptions: { maxParamLength: 4096 },
    clientErrorHandler: (err, socket) => {
      if (socket.writable) socket.end(clientErrorResponse(err));
      else socket.destroy(err);
    },
    // Draining (shutdown) answers 503 problem+json itself (onRequest below), with a trace id.
    return503OnClosing: false,
    // Nullable fields serialized without Ajv (src/server/serializer.ts).
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const { strict, coercing } = validators();
  // Routes whose body validator is compiled once the server listens (config.compileAtStart), not
  // by their first request: `fos products import` right after `fos serve` started paid its ~65 ms.
  const atStart = new Set<string>();
  const startValidators: Array<{ compile(): void }> = [];
  app.addHook('onRoute', (route) => {
    if (route.config?.compileAtStart) for (const method of [route.method].flat()) atStart.add(`${method} ${route.url}`);
  });
  app.setValidatorCompiler(({ schema, httpPart, method, url }) => {
    if (httpPart === 'body' && isMultipartSchema(schema)) return () => true;
    const validate = lazyValidator(() => (httpPart === 'body' ? strict : coercing).compile(schema) as Validator);
    if (httpPart === 'body' && atStart.has(`${method} ${url}`)) startValidators.push(validate);
    return validate;
  });
  app.decorate('compileValidatorsAtStart', () => {
    for (const v of startValidators) v.compile();
    return startValidators.length;
  });
  // An empty application/json body (curl -H 'content-type: application/json' -X POST …/disable)
  // counts as no body: bodyless operations work, operations needing a body still answer 400.
  const json = app.getDefaultJsonParser('error', 'error');
  // Only JSON bodies are accepted (docs/api.md): text/plain is 415 like any other media type.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, body as string, done),
  );

  const principals = new PrincipalResolver(db, config.authCacheTtlMs, config.clock, {
    isAccessToken,
    principal: accessTokenPrincipal,
  });
  const limiter = new RefusingStore(config.rateLimitStore ?? new MemoryStore());
  // Domain code reads the same clock (automation rules' deliver_by: src/domain/clock.ts dbNow).
  if (config.clock) db.clock = config.clock;
  app.decorate('db', db);
  app.decorate('principals', principals);
  app.decorate('rateLimiter', limiter);
  app.decorate('clock', config.clock ?? Date.now);
  app.decorate('allowPrivateWebhooks', config.allowPrivateWebhooks ?? false);
  app.decorate('shopifyApp', config.shopifyApp === undefined ? shopifyAppFromEnv(process.env) : config.shopifyApp);
  app.decorate('bigcommerceApp', config.bigcommerceApp === undefined ? bigcommerceAppFromEnv(process.env) : config.bigcommerceApp);
  app.decorate('draining', false);
  app.decorate('now', () => nowOf(config.clock));
  const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : null;
  app.decorate('originOf', (request: FastifyRequest) => publicOrigin ?? `${request.protocol}://${request.host}`);
  // Built on first use: app.swagger() needs the app ready, and every route is registered by then.
  let catalog: Catalog | undefined;
  app.decorate('agentCatalog', () => (catalog ??= buildCatalog(app.swagger() as unknown as OpenApiDocument)));
  const storage = await storageFor(config.storage ?? defaultFilesDir());
  const processor = new FileProcessor(db, storage, app.log);
  const maxUploadBytes = config.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  app.decorate('files', { storage, maxUploadBytes, processor });
  app.decorate('labelBatches', labelBatchRunner(db, app.log, { allowPrivate: config.allowPrivateWebhooks ?? false }));
  app.addHook('onClose', () => app.labelBatches.stop());
  // Shutting down (src/server/serve.ts): requests still arriving on open keep-alive connections
  // are told to come back (the CLI retries 503 with retry-after), and the connection is closed.
  // (Hooks that never wait are written with `done`: no promise per request.)
  // Outbound calls made while answering carry the request's trace id in their outcome lines.
  if (config.logger !== false) setOutboundLogger(app.log);
  app.addHook('onRequest', (request, _reply, done) => withOutboundScope({ traceId: String(request.id) }, done));
  app.addHook('onRequest', (request, reply, done) => {
    if (!app.draining) return done();
    reply.header('retry-after', 1).header('connection', 'close');
    sendProblem(request, reply, 'unavailable', 'The server is shutting down; retry in a moment.'); // answered: no done()
  });
  // Before any route, so every one is counted (src/server/metrics.ts); nothing without a token.
  await metricsRoutes(app, config.metricsToken);
  healthRoutes(app, { minFreeDiskBytes: config.minFreeDiskBytes });
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-trace-id', request.id);
    // Requests finishing during a drain close their keep-alive connection behind them.
    if (app.draining) reply.header('connection', 'close');
    done();
  });
  app.addHook('onClose', async () => {
    await processor.stop();
    await limiter.close();
  });

  registerAudit(app); // before authentication: the request's audit context is open for all of it
  registerProblemHandlers(app);
  refuseQuerySecrets(app);
  await registerOpenApi(app, VERSION);
  registerAuth(app, principals, limiter, new UnauthLimiter(config.unauthRateLimit ?? DEFAULT_UNAUTH_LIMIT), config.clock);
  registerOpenApiRoute(app);
  await app.register(registerRoutes);
  await app.register(mcpRoutes);
  await app.register(oauthRoutes, { rateLimit: config.oauthRateLimit ?? true });
  return app;
}
