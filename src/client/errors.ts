/** Errors raised by the API client: problem+json responses and transport failures. */

export interface FieldError {
  path: string;
  message: string;
}

const KIND_BY_STATUS: Record<number, string> = {
  400: 'validation-failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'payload-too-large',
  422: 'validation-failed',
  429: 'rate-limited',
  500: 'internal',
};

const REFERENCE_RE = /\(support reference: ([0-9a-f]{16})\)/i;

/** An HTTP error response, parsed from `application/problem+json` where the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  /** `urn:fos:error:<kind>`, or `about:blank` for non-problem bodies. */
  readonly type: string;
  /** The `<kind>` of `type`, or derived from the status. */
  readonly kind: string;
  readonly title: string;
  /** Ends with `(support reference: <16 hex>)` on fos servers. */
  readonly detail: string;
  readonly traceId?: string;
  readonly errors?: FieldError[];
  /** The parsed body (object) or raw text. */
  readonly body: unknown;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    type?: string;
    kind?: string;
    title: string;
    detail: string;
    traceId?: string;
    errors?: FieldError[];
    body: unknown;
    method: string;
    url: string;
  }) {
    super(`${init.title}: ${init.detail}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.type = init.type ?? 'about:blank';
    this.kind = init.kind ?? KIND_BY_STATUS[init.status] ?? (init.status >= 500 ? 'internal' : 'error');
    this.title = init.title;
    this.detail = init.detail;
    this.traceId = init.traceId;
    this.errors = init.errors;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url;
  }
}

/** The server could not be reached, or the connection broke before a response arrived. */
export class NetworkError extends Error {
  readonly code: string;
  readonly url: string;
  constructor(url: string, code: string, cause: unknown) {
    const reason = cause instanceof Error && cause.message ? cause.message : code;
    super(`could not reach ${new URL(url).origin}: ${reason}`, { cause });
    this.name = 'NetworkError';
    this.code = code;
    this.url = url;
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Wraps a transport error as NetworkError; returns undefined for anything else (e.g. aborts). */
export function toNetworkError(err: unknown, url: string): NetworkError | undefined {
  const e = err as { code?: string; cause?: { code?: string }; errors?: { code?: string }[] } | null;
  const code = e?.code ?? e?.cause?.code ?? e?.errors?.[0]?.code;
  return code && NETWORK_CODES.has(code) ? new NetworkError(url, code, err) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Builds an ApiError from a response status, content type and body text. */
export function apiErrorFrom(status: number, contentType: string, text: string, method: string, url: string): ApiError {
  let body: unknown = text;
  if (/json/i.test(contentType) && text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const p = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const type = str(p.type);
  const kindMatch = type ? /:error:([^:]+)$/.exec(type) : null;
  const detail = str(p.detail) ?? (typeof body === 'string' && body ? body.trim().slice(0, 200) : `${method} ${url} failed`);
  const traceId = str(p.trace_id) ?? REFERENCE_RE.exec(detail)?.[1];
  const errors = Array.isArray(p.errors) ? (p.errors as FieldError[]) : undefined;
  return new ApiError({
    status,
    type,
    kind: kindMatch?.[1],
    title: str(p.title) ?? `HTTP ${status}`,
    detail,
    traceId,
    errors,
    body,
    method,
    url,
  });
}
