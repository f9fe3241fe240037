// A tiny node:http server speaking the documented API shapes (docs/architecture.md): JSON
// bodies, problem+json errors with a support reference, x-ratelimit-* headers, list envelopes
// { data, meta }. Used where the real server has no route yet; not a module mock.
//
//   const api = new FakeApi('fos_key');
//   api.on('GET', '/v1/ops/products/:id', (req, { id }) => ({ body: { id } }));
//   const baseUrl = await api.start();   // http://127.0.0.1:<port>/v1

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  rawBody: string;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string | number>;
}

type Handler = (req: Recorded, params: Record<string, string>) => Reply | Promise<Reply>;

export const REF = '0123456789abcdef';

export function problem(status: number, kind: string, title: string, message: string, extra: Record<string, unknown> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: { type: `urn:fos:error:${kind}`, title, status, detail: `${message} (support reference: ${REF})`, trace_id: REF, ...extra },
  };
}

/** A page of `items` as the server shapes it (0-based pages). */
export function page<T>(items: T[], req: Recorded, defaultLimit = 20): Reply {
  const p = Number(req.query.get('page') ?? 0);
  const limit = Number(req.query.get('limit') ?? defaultLimit);
  const data = items.slice(p * limit, p * limit + limit);
  return {
    body: {
      data,
      meta: {
        page: p,
        page_size: limit,
        start_index: data.length ? p * limit + 1 : 0,
        end_index: p * limit + data.length,
        has_next_page: (p + 1) * limit < items.length,
        has_previous_page: p > 0,
      },
    },
  };
}

export class FakeApi {
  readonly requests: Recorded[] = [];
  private readonly routes: { method: string; re: RegExp; names: string[]; handler: Handler }[] = [];
  private server: Server | undefined;

  constructor(readonly token = 'fos_test') {}

  on(method: string, path: string, handler: Handler): this {
    const names: string[] = [];
    const re = new RegExp(`^${path.replace(/:([a-z_]+)/g, (_m, n: string) => (names.push(n), '([^/]+)'))}$`);
    this.routes.push({ method, re, names, handler });
    return this;
  }

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://x');
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = rawBody;
      }
      const rec: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        rawBody,
      };
      this.requests.push(rec);
      let reply: Reply;
      if (req.headers['x-access-token'] !== this.token) {
        reply = problem(401, 'unauthorized', 'Unauthorized', 'The API key is not valid.');
      } else {
        const route = this.routes.find((r) => r.method === rec.method && r.re.test(rec.path));
        if (!route) reply = problem(404, 'not-found', 'Not Found', `No operation ${rec.method} ${rec.path}.`);
        else {
          const m = route.re.exec(rec.path) ?? [];
          reply = await route.handler(rec, Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')])));
        }
      }
      const headers: Record<string, string | number> = {
        'x-ratelimit-limit': 30,
        'x-ratelimit-remaining': 29,
        'x-ratelimit-reset': 42,
        ...(reply.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...reply.headers,
      };
      res.writeHead(reply.status ?? 200, headers);
      res.end(reply.body === undefined ? undefined : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Requests made to a path (method optional). */
  calls(path: string, method?: string): Recorded[] {
    return this.requests.filter((r) => r.path === path && (!method || r.method === method));
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
