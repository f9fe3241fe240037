/** Shapes shared by the API client and its callers (see docs/architecture.md, "Lists"). */

/** A query-string value; arrays are sent comma-separated, undefined/null/'' are omitted. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

/** Where requests go and which key signs them. base_url already ends with /v1. */
export interface Credentials {
  baseUrl: string;
  apiKey: string;
}

/** Standard list meta; fulfillment-order lists add `total`. */
export interface PageMeta {
  page?: number;
  page_size?: number;
  start_index?: number;
  end_index?: number;
  has_next_page?: boolean;
  has_previous_page?: boolean;
  total?: number;
  /** Keyset cursor of the next page (fos serve); null on the last page. */
  next_cursor?: string | null;
}

export interface ListResponse<T> {
  data: T[];
  meta: PageMeta;
}

/** Rate-limit headers of the last response that carried them. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Seconds until the window resets. */
  reset?: number;
  /** Seconds, present on 429 responses. */
  retryAfter?: number;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: Query;
  /** JSON-encoded as the request body. */
  body?: unknown;
  /**
   * Sent as-is (e.g. `fos api --input`); content-type defaults to application/json. A stream
   * (uploads) is sent once: the request is never repeated, not even after a 429.
   */
  rawBody?: string | Buffer | NodeJS.ReadableStream;
  headers?: Record<string, string>;
  /** Sent as `idempotency-key`; makes a write safe to retry. */
  idempotencyKey?: string;
  /**
   * The caller knows repeating this write is harmless (a repeat answers the same, or a 409 the
   * caller reads as done): retried like a GET after an unanswered attempt (retry.ts).
   */
  idempotent?: boolean;
  /** Set to true when an attempt went unanswered (no answer, 502/503/504) and was repeated. */
  seen?: { unanswered?: boolean };
  /** The body of a success as bytes (a Buffer in `data`): PDFs, ZPL, files. Errors stay problem+json. */
  binary?: boolean;
  /** The body of a success as a stream in `data`, read as it arrives (exports). Errors stay problem+json. */
  stream?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
}
