import type { Operation } from './deadlines.js';
import { send, type OutboundRequest } from './outbound.js';

// The outbound layer in each client's own shape, so every SDK speaks through send():
// - a WHATWG fetch: Shippo's HTTPClient fetcher, Shopify's customFetchApi, label downloads,
//   webhook deliveries. Shippo hands a Request carrying its own signal: it is not followed (the
//   layer's timer is the deadline).
// - a superagent stand-in: @easypost/api 8.x has no fetch or httpClient option and ignores its
//   `timeout`, but its `superagentMiddleware` replaces the superagent it calls (agent[method](url)
//   .set().auth().query().send(), awaited); this is that object.
// - an axios adapter: WooCommerce's client passes axiosConfig to axios, whose `adapter` sends.

export interface Transport {
  platform: string;
  allowPrivate?: boolean;
  /** Default operation (the scope's, set by asOperation, wins). */
  operation?: Operation;
  /** Whether a call may be sent again (default: GET and HEAD). */
  retrySafe?: (method: string, body: string | null) => boolean;
}

const readOnly = (method: string) => method === 'GET' || method === 'HEAD';

function request(
  t: Transport,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer | string | null,
): OutboundRequest {
  const m = method.toUpperCase();
  const text = body === null ? null : String(body);
  return {
    url,
    method: m,
    headers,
    body,
    platform: t.platform,
    operation: t.operation,
    allowPrivate: t.allowPrivate,
    retrySafe: (t.retrySafe ?? readOnly)(m, text),
  };
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/** A fetch over the layer (no redirects followed: a 3xx is answered as it is). */
export function outboundFetch(t: Transport): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const isReq = typeof Request !== 'undefined' && input instanceof Request;
    const url = isReq ? (input as Request).url : String(input);
    const method = (isReq ? (input as Request).method : init?.method) ?? 'GET';
    const headers: Record<string, string> = {};
    new Headers(isReq ? (input as Request).headers : init?.headers).forEach((v, k) => (headers[k] = v));
    let body: Buffer | string | null = null;
    if (isReq) body = (input as Request).body ? Buffer.from(await (input as Request).arrayBuffer()) : null;
    else if (init?.body != null) body = typeof init.body === 'string' ? init.body : Buffer.from(init.body as ArrayBuffer);
    const res = await send(request(t, url, method, headers, body));
    return new Response(NULL_BODY.has(res.status) ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
  }) as typeof fetch;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- superagent's and axios's untyped shapes */
class AgentRequest implements PromiseLike<any> {
  private headers: Record<string, string> = {};
  private params = new URLSearchParams();
  _data: unknown;
  constructor(
    private readonly t: Transport,
    private readonly method: string,
    private readonly url: string,
  ) {}
  set(h: Record<string, string>) {
    for (const [k, v] of Object.entries(h)) this.headers[k.toLowerCase()] = String(v);
    return this;
  }
  auth(user: string, pass = '') {
    this.headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    return this;
  }
  query(q: Record<string, unknown>) {
    for (const [k, v] of Object.entries(q ?? {})) if (v !== undefined) this.params.append(k, String(v));
    return this;
  }
  send(d: unknown) {
    this._data = d;
    return this;
  }
  private async run() {
    const u = new URL(this.url);
    this.params.forEach((v, k) => u.searchParams.append(k, v));
    const body = this._data === undefined ? null : JSON.stringify(this._data);
    const res = await send(request(this.t, u.href, this.method, this.headers, body));
    let parsed: any;
    try {
      parsed = res.body.length ? JSON.parse(res.body.toString('utf8')) : {};
    } catch {
      parsed = { error: { message: `unreadable answer (HTTP ${res.status})`, code: 'BAD_JSON' } };
    }
    const out = { status: res.status, statusCode: res.status, body: parsed, headers: res.headers };
    if (res.status >= 400) {
      if (!parsed?.error) out.body = { error: { message: `HTTP ${res.status}`, code: String(res.status) } };
      throw Object.assign(new Error(`HTTP ${res.status}`), { status: res.status, response: out });
    }
    return out;
  }
  then<A, B>(ok?: ((v: any) => A | PromiseLike<A>) | null, fail?: ((e: any) => B | PromiseLike<B>) | null) {
    return this.run().then(ok, fail);
  }
}

/** The superagent @easypost/api calls, over the layer (its superagentMiddleware returns this). */
export function superagentOver(t: Transport) {
  const verb = (m: string) => (url: string) => new AgentRequest(t, m, url);
  return { get: verb('GET'), post: verb('POST'), put: verb('PUT'), patch: verb('PATCH'), del: verb('DELETE') };
}

/** An axios adapter over the layer (WooCommerce's client). */
export function axiosAdapter(t: Transport) {
  const fetcher = outboundFetch(t);
  return async (config: any) => {
    const url = new URL(config.url, config.baseURL);
    for (const [k, v] of Object.entries(config.params ?? {})) if (v !== undefined) url.searchParams.append(k, String(v));
    const headers: Record<string, string> = {};
    const raw = typeof config.headers?.toJSON === 'function' ? config.headers.toJSON() : (config.headers ?? {});
    for (const [k, v] of Object.entries(raw)) if (v != null && v !== false) headers[k.toLowerCase()] = String(v);
    if (config.auth) headers.authorization = `Basic ${Buffer.from(`${config.auth.username}:${config.auth.password}`).toString('base64')}`;
    const res = await fetcher(url.href, { method: String(config.method ?? 'get').toUpperCase(), headers, body: config.data ?? undefined });
    const text = await res.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : '';
    } catch {
      /* left as text: the caller reports an unreadable answer */
    }
    const out = { data, status: res.status, statusText: res.statusText, headers: Object.fromEntries(res.headers), config, request: {} };
    const valid = config.validateStatus ? config.validateStatus(res.status) : res.status >= 200 && res.status < 300;
    if (!valid)
      throw Object.assign(new Error(`Request failed with status code ${res.status}`), { response: out, config, isAxiosError: true });
    return out;
  };
}
