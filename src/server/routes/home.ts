import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import { packageRoot } from '../../db/migrate.js';
import { VERSION } from '../../version.js';

// What a person or a program finds at the address `fos serve` prints (issue 35): `/` is a small
// HTML page saying what this server is and where to go, `/v1` the same as JSON, and `/docs/…`
// the checkout's documentation as plain text. No key is needed: nothing here is data.

const page = { config: { public: true }, schema: { hide: true } };
const DOC = /^[a-z0-9-]+\.md$/;

/** The checkout's docs/ directory, if this installation has one (the standalone binary may not). */
function docsDir(): string | undefined {
  try {
    const dir = path.join(packageRoot(), 'docs');
    return existsSync(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

function docNames(): string[] {
  const dir = docsDir();
  return dir
    ? readdirSync(dir)
        .filter((n) => DOC.test(n))
        .sort()
    : [];
}

/** The links both forms give, as absolute URLs of this request's origin; metrics only when served (--metrics-token). */
function links(origin: string, metrics: boolean) {
  return {
    openapi: `${origin}/v1/swagger.json`,
    floor: `${origin}/floor`,
    mcp: `${origin}/mcp`,
    docs: `${origin}/docs/`,
    me: `${origin}/v1/me`,
    health: `${origin}/healthz`,
    ready: `${origin}/readyz`,
    ...(metrics ? { metrics: `${origin}/metrics` } : {}),
  };
}

// No script at all; the empty data: icon spares the browser a /favicon.ico request (a 404).
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Links are relative; the origin (from the request's Host) is only shown, escaped. */
function homeHtml(requestOrigin: string): string {
  const origin = escapeHtml(requestOrigin);
  const docs = docNames()
    .map((n) => `<li><a href="/docs/${n}">${n.replace(/\.md$/, '')}</a></li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>fos — Fulfillment Operations API</title><link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25em}</style>
</head><body>
<h1>fos — Fulfillment Operations API</h1>
<p>This is <code>fos serve</code> ${VERSION}: the Fulfillment Operations Public API, self-hosted. The API is under
<code>${origin}/v1</code>; every call needs an API key in the <code>x-access-token</code> header
(the first start printed one and saved it as a CLI profile).</p>
<ul>
<li><a href="/v1/swagger.json">OpenAPI document</a> (<code>/v1/swagger.json</code>): every operation, its body and answers</li>
<li><a href="/v1">API index</a> (<code>/v1</code>, JSON)</li>
<li><a href="/floor">Floor page</a> (<code>/floor</code>): picking and packing on handheld scanners and phones, with a user's sign-in</li>
<li>Agent tools (MCP): <code>${origin}/mcp</code></li>
<li>For monitoring: <a href="/healthz">liveness</a> (<code>/healthz</code>), <a href="/readyz">readiness</a> (<code>/readyz</code>), Prometheus metrics at <code>/metrics</code> when a metrics token is set</li>
</ul>
<h2>Documentation</h2>
${docs ? `<ul>${docs}</ul>` : '<p>The documentation is in the <code>docs/</code> directory of the fos repository.</p>'}
<p>From a terminal: <code>fos --help</code>, <code>fos products list</code>.</p>
</body></html>
`;
}

const originOf = (app: FastifyInstance, request: FastifyRequest) => app.originOf(request);

export default async function homeRoutes(app: FastifyInstance) {
  app.get('/', page, async (request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      .send(homeHtml(originOf(app, request))),
  );

  // Browsers ask every origin for one (also on the JSON and text pages): nothing, rather than a 404.
  app.get('/favicon.ico', page, async (_request, reply) => reply.code(204).send());

  app.get('/v1', page, async (request) => ({
    name: 'fos',
    description: 'Fulfillment Operations Public API (self-hosted: fos serve)',
    version: VERSION,
    base_url: `${originOf(app, request)}/v1`,
    authentication: 'an API key in the x-access-token header',
    links: links(originOf(app, request), app.hasRoute({ method: 'GET', url: '/metrics' })),
  }));

  app.get('/docs/', page, async (request) => ({
    docs: docNames().map((n) => `${originOf(app, request)}/docs/${n}`),
  }));

  app.get('/docs/:name', page, async (request, reply) => {
    const { name } = request.params as { name: string };
    const dir = docsDir();
    if (!dir || !DOC.test(name) || !docNames().includes(name)) throw new DomainError('not-found', `/docs/${name} was not found.`);
    return reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .send(await readFile(path.join(dir, name), 'utf8'));
  });
}
