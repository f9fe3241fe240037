import { ApiError, apiErrorFrom, toNetworkError } from './errors.js';
import { paginate, type PaginateOptions } from './paginate.js';
import { parseRateLimit } from './rate-limit.js';
import { redactToken } from './redact.js';
import { Transport, type TransportResponse } from './transport.js';
import { DEFAULT_RETRY, backoffMs, isRetrySafe, refusedLocally, retryDelayMs, sleep, withinBudget, type RetryPolicy } from './retry.js';
import type { ApiResponse, Credentials, HttpMethod, ListResponse, Query, RateLimitInfo, RequestOptions } from './types.js';

export interface RetryNotice {
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface ClientOptions {
  /** Static credentials, or a resolver called once before the first request. */
  credentials: Credentials | (() => Promise<Credentials>);
  retry?: Partial<RetryPolicy>;
  /** `--verbose`: receives `> METHOD url` and `< status (ms)` lines; the key is redacted. */
  log?: (line: string) => void;
  /** Told before each retry wait (the CLI prints it on stderr). */
  onRetry?: (notice: RetryNotice) => void;
  userAgent?: string;
}

/** Joins base URL (ending /v1) and path; absolute http(s) URLs pass through. */
export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const url = /^https?:\/\//i.test(path)
    ? new URL(path)
    : new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return url.toString();
}

function flatHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Typed client for the fos API (keep-alive connections, see transport.ts). */
export class ApiClient {
  /** Rate-limit headers of the most recent response that carried them. */
  lastRateLimit: RateLimitInfo | undefined;
  private readonly policy: RetryPolicy;
  private credentials: Promise<Credentials> | undefined;
  private transport: Transport | undefined;

  constructor(private readonly options: ClientOptions) {
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** The resolved credentials (resolving them if needed). */
  resolveCredentials(): Promise<Credentials> {
    const c = this.options.credentials;
    this.credentials ??= typeof c === 'function' ? c() : Promise.resolve(c);
    return this.credentials;
  }

  async request<T = unknown>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const { baseUrl, apiKey } = await this.resolveCredentials();
    const transport = (this.transport ??= new Transport());
    const url = buildUrl(baseUrl, path, opts.query);
    // The key goes only to the API's own origin: an absolute URL elsewhere (an uploaded label's
    // label_url, say) is fetched without it.
    const ownOrigin = new URL(url).origin === new URL(baseUrl).origin;
    const headers: Record<string, string> = {
      accept: opts.binary ? '*/*' : 'application/json, application/problem+json',
      'user-agent': this.options.userAgent ?? 'fos-cli',
      ...(ownOrigin ? { 'x-access-token': apiKey } : {}),
      ...opts.headers,
    };
    let body: string | Buffer | NodeJS.ReadableStream | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    const once = typeof body === 'object' && !Buffer.isBuffer(body); // a stream cannot be sent twice
    const safe = !once && isRetrySafe(method, Boolean(opts.idempotencyKey ?? headers['idempotency-key']), opts.idempotent);
    const log = this.options.log;
    const used = { retries: 0, waitedMs: 0 };
    const wait = async (delayMs: number, reason: string) => {
      if (reason !== 'HTTP 429' && opts.seen) opts.seen.unanswered = true;
      used.retries++;
      used.waitedMs += delayMs;
      this.options.onRetry?.({ attempt: used.retries, delayMs, reason });
      await sleep(delayMs);
    };

    for (let attempt = 0; ; attempt++) {
      log?.(`> ${method} ${url}`);
      if (attempt === 0 && ownOrigin) log?.(`> x-access-token: ${redactToken(apiKey)}`);
      const started = performance.now();
      let res: TransportResponse;
      try {
        res = await transport.send(url, { method, headers, body }, { stream: opts.stream });
      } catch (err) {
        const netErr = toNetworkError(err, url);
        if (!netErr) throw err;
        log?.(`< ${netErr.code} (${Math.round(performance.now() - started)} ms)`);
        const delayMs =
          safe && !refusedLocally(netErr.code, url) ? withinBudget(backoffMs(attempt, this.policy), used, this.policy) : undefined;
        if (delayMs === undefined) throw netErr;
        await wait(delayMs, netErr.code);
        continue;
      }
      if (res.stream) {
        log?.(`< ${res.statusCode} (${Math.round(performance.now() - started)} ms, streaming)`);
        return { status: res.statusCode, headers: flatHeaders(res.headers), data: res.stream as T };
      }
      const bytes = opts.binary && res.statusCode < 400 ? res.body : undefined;
      const text = bytes ? '' : res.body.toString('utf8');
      const responseHeaders = flatHeaders(res.headers);
      log?.(`< ${res.statusCode} (${Math.round(performance.now() - started)} ms)`);
      const rateLimit = parseRateLimit(res.headers);
      if (rateLimit) this.lastRateLimit = rateLimit;
      const contentType = responseHeaders['content-type'] ?? '';
      if (bytes) return { status: res.statusCode, headers: responseHeaders, data: bytes as T };
      if (res.statusCode < 400) {
        const data = (text && /json/i.test(contentType) ? JSON.parse(text) : text || undefined) as T;
        return { status: res.statusCode, headers: responseHeaders, data };
      }
      // A 429 was refused before anything ran, so any request may wait and go again (imports stay within their tier).
      const delayMs = once
        ? undefined
        : withinBudget(retryDelayMs(res.statusCode, rateLimit, attempt, this.policy, safe), used, this.policy);
      if (delayMs === undefined) throw apiErrorFrom(res.statusCode, contentType, text, method, url);
      await wait(delayMs, `HTTP ${res.statusCode}`);
    }
  }

  async get<T = unknown>(path: string, query?: Query): Promise<T> {
    return (await this.request<T>('GET', path, { query })).data;
  }

  async post<T = unknown>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('POST', path, { ...opts, body })).data;
  }

  async patch<T = unknown>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('PATCH', path, { ...opts, body })).data;
  }

  async put<T = unknown>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('PUT', path, { ...opts, body })).data;
  }

  async delete<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('DELETE', path, opts)).data;
  }

  /** GET a document (PDF, ZPL, a file) as bytes, with its content type. */
  async download(path: string, query?: Query): Promise<{ bytes: Buffer; contentType: string; disposition?: string }> {
    const res = await this.request<Buffer>('GET', path, { query, binary: true });
    return {
      bytes: res.data,
      contentType: res.headers['content-type'] ?? 'application/octet-stream',
      disposition: res.headers['content-disposition'],
    };
  }

  /** GET a streamed body (an export's NDJSON or CSV), read as it arrives; retried only until it starts. */
  async stream(path: string, query?: Query): Promise<{ body: NodeJS.ReadableStream; headers: Record<string, string> }> {
    const res = await this.request<NodeJS.ReadableStream>('GET', path, {
      query,
      stream: true,
      headers: { accept: 'application/x-ndjson, text/csv, application/problem+json' },
    });
    return { body: res.data, headers: res.headers };
  }

  /** Yields the records of every page of a list endpoint (see paginate.ts). */
  paginate<T = Record<string, unknown>>(path: string, query: Query = {}, opts: PaginateOptions = {}): AsyncGenerator<T> {
    return paginate<T>((q) => this.get<ListResponse<T>>(path, q), query, opts);
  }

  /** Closes pooled connections (the CLI calls this before exiting). */
  async close(): Promise<void> {
    await this.transport?.close();
  }
}

export { ApiError };
