import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { PageMetaSchema, ProblemSchema } from '../contract/common.js';
import { boundRequestSchemas } from '../contract/bounds.js';

// The OpenAPI document is generated from the route schemas that validate requests. Every
// /v1 route gets its security, required permission and problem responses added here, once.

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
});

// GET routes are registered twice (GET and the automatic HEAD) with one schema object.
const decorated = new WeakSet<object>();

/**
 * A query parameter with a default need not be sent (validation fills it in), so the document
 * must not call it required. Validation is unchanged: the default always satisfies `required`.
 */
function defaultsAreOptional(querystring: unknown) {
  const qs = querystring as { properties?: Record<string, { default?: unknown }>; required?: string[] } | undefined;
  if (!qs?.properties || !Array.isArray(qs.required)) return;
  qs.required = qs.required.filter((name) => qs.properties![name]?.default === undefined);
  if (qs.required.length === 0) delete qs.required;
}

function decorateSchema(route: RouteOptions) {
  const config = (route.config ?? {}) as { permission?: string | null; public?: boolean; family?: string };
  if (!route.schema || decorated.has(route.schema)) return;
  decorated.add(route.schema);
  boundRequestSchemas(route.schema as Record<string, unknown>);
  if (route.schema.hide) return;
  const schema = route.schema as Record<string, unknown> & { response?: Record<string, unknown> };
  const isWrite = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(String(route.method));
  defaultsAreOptional(schema.querystring);
  const permission = config.permission ?? null;
  if (!config.public) {
    schema['x-permission'] = permission;
    if (config.family) schema['x-family'] = config.family;
    const needs = permission ? `Requires the ${permission} permission.` : 'Requires any valid API key.';
    const family = config.family ? ` Serves ${config.family === 'ops' ? 'fulfiller' : 'merchant'} team keys.` : '';
    schema.description = [schema.description, needs + family].filter(Boolean).join('\n\n');
  } else {
    // Public operations say so explicitly and override the document-wide security requirement.
    schema['x-public'] = true;
    schema.security = [];
  }
  const errors: Record<string, unknown> = { '400': problem('Validation failed (urn:fos:error:validation-failed).') };
  if (!config.public) {
    errors['401'] = problem('Missing, malformed, unknown, disabled or expired key (urn:fos:error:unauthorized).');
    errors['403'] = problem('The key lacks the required permission or path family (urn:fos:error:forbidden).');
    errors['429'] = problem('Rate limit exceeded (urn:fos:error:rate-limited); see retry-after.');
  }
  if (/\{|:/.test(route.url)) errors['404'] = problem('Record not found (urn:fos:error:not-found).');
  if (isWrite) {
    errors['409'] = problem("Conflicts with the record's current state (urn:fos:error:conflict, lock-held, on-hold).");
    errors['413'] = problem('Request body too large (urn:fos:error:payload-too-large).');
    errors['415'] = problem('Request body is not application/json (urn:fos:error:unsupported-media-type).');
  }
  errors['500'] = problem('Unexpected failure (urn:fos:error:internal).');
  schema.response = { ...errors, ...(schema.response ?? {}) };
}

export async function registerOpenApi(app: FastifyInstance, version: string) {
  app.addSchema(ProblemSchema);
  app.addSchema(PageMetaSchema);
  app.addHook('onRoute', decorateSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fulfillment Operations Public API (fos)',
        version,
        description: 'Self-hosted by `fos serve`. Authenticate with the `x-access-token` header.',
      },
      // Internal view (app.swagger(): MCP catalog, docs/api.md table) keeps full /v1 paths; the
      // published document is rebased on /v1 (publishedDocument below).
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token' },
        },
      },
      security: [{ accessToken: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}

/**
 * The document as published at /v1/swagger.json: the spec's {base_url} ends with /v1, so the
 * server is `/v1` (relative: resolved against wherever the document was fetched) and the paths
 * are relative to it (`/ops/products`), as generated clients and Prism expect; app.swagger()
 * keeps `/v1/...` paths for the agent catalog's readable operation keys.
 */
export function publishedDocument(doc: { paths?: Record<string, unknown> } & Record<string, unknown>) {
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) paths[path.startsWith('/v1/') ? path.slice(3) : path] = item;
  return { ...doc, servers: [{ url: '/v1', description: "this server (the spec's {base_url})" }], paths };
}

export function registerOpenApiRoute(app: FastifyInstance) {
  let document: { body: Buffer; etag: string } | undefined;
  app.get(
    '/v1/swagger.json',
    {
      config: { public: true },
      schema: { hide: true },
    },
    async (request, reply) => {
      // Built and serialized once (routes are fixed after ready): the ~0.5 MB document costs a
      // buffer write per request, and clients revalidate with If-None-Match.
      document ??= (() => {
        const body = Buffer.from(JSON.stringify(publishedDocument(app.swagger() as never)));
        return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      })();
      reply.header('etag', document.etag).header('cache-control', 'public, max-age=0, must-revalidate');
      if (request.headers['if-none-match'] === document.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(document.body);
    },
  );
}
