import { randomFillSync } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, invalid, type FieldError, type ProblemKind } from '../domain/errors.js';
import { isWellFormed } from '../contract/bounds.js';
import { isTransientFailure } from '../db/client.js';

// problem+json for every error (spec §7, design §2). The trace id is the request id, so the
// "support reference" in a detail finds the request's log lines.

const STATUS: Record<ProblemKind, [number, string]> = {
  unauthorized: [401, 'Unauthorized'],
  forbidden: [403, 'Forbidden'],
  'not-found': [404, 'Not Found'],
  'validation-failed': [400, 'Validation Failed'],
  unprocessable: [422, 'Unprocessable Content'],
  conflict: [409, 'Conflict'],
  'lock-held': [409, 'Lock Held'],
  'on-hold': [409, 'Order On Hold'],
  'rate-limited': [429, 'Too Many Requests'],
  'payload-too-large': [413, 'Payload Too Large'],
  'unsupported-media-type': [415, 'Unsupported Media Type'],
  unavailable: [503, 'Service Unavailable'],
  internal: [500, 'Internal Server Error'],
};

export const statusOf = (kind: ProblemKind) => STATUS[kind][0];

// Trace ids: 8 random bytes each, cut from a pool refilled 512 ids at a time (a randomBytes call
// per request was ~1% of a list page's CPU).
const TRACE_POOL = Buffer.alloc(8 * 512);
let traceAt = TRACE_POOL.length;
export const newTraceId = () => {
  if (traceAt === TRACE_POOL.length) {
    randomFillSync(TRACE_POOL);
    traceAt = 0;
  }
  const at = traceAt;
  traceAt += 8;
  return TRACE_POOL.toString('hex', at, at + 8);
};

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ProblemKind,
  message: string,
  extra: Record<string, unknown> = {},
) {
  const [status, title] = STATUS[kind];
  const traceId = String(request.id);
  // Extra members come first so they can never overwrite the problem+json members.
  const body = {
    ...extra,
    type: `urn:fos:error:${kind}`,
    title,
    status,
    detail: `${message} (support reference: ${traceId})`,
    trace_id: traceId,
  };
  // Set here too: replies from frameworkErrors skip the onSend hook that usually adds it.
  reply.header('x-trace-id', traceId);
  // Sent as a string so no route response schema reshapes it.
  return reply.code(status).type('application/problem+json').send(JSON.stringify(body));
}

function validationErrors(error: FastifyError): FieldError[] {
  const part = (error.validationContext ?? 'body').replace('querystring', 'query');
  return (error.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    let field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    let message = v.message ?? 'is invalid';
    if (typeof params.missingProperty === 'string') {
      field = field ? `${field}.${params.missingProperty}` : params.missingProperty;
      message = 'is required';
    } else if (typeof params.additionalProperty === 'string') {
      field = field ? `${field}.${params.additionalProperty}` : params.additionalProperty;
      message = 'is not a known field';
    } else if (params.multipleOf === 1) {
      message = 'must be a whole number (a number without a fractional part)';
    } else if (Array.isArray(params.allowedValues)) {
      message = `must be one of ${params.allowedValues.join(', ')}`;
    }
    return { path: field ? `${part}.${field}` : part, message };
  });
}

/** Collapses anyOf noise (one error per branch) into one message per path. */
function dedupe(errors: FieldError[]): FieldError[] {
  const byPath = new Map<string, FieldError>();
  for (const e of errors) if (!byPath.has(e.path)) byPath.set(e.path, e);
  return [...byPath.values()];
}

/** Fastify's `frameworkErrors`: errors raised before routing (an undecodable URL) as problem+json too. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendProblem(request, reply, 'validation-failed', 'The URL is not validly percent-encoded.', {
      errors: [{ path: 'url', message: 'is not validly percent-encoded' }],
    });
  }
  // A client's fault: logged briefly (never the whole URL, which may be megabytes of fuzz).
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    request.log.info({ code: error.code }, 'request refused before routing');
    return sendProblem(request, reply, 'validation-failed', 'The request could not be routed.', {
      errors: [{ path: 'request', message: 'could not be routed' }],
    });
  }
  request.log.error({ code: error.code, msg: error.message.slice(0, 200) }, 'framework error');
  return sendProblem(request, reply, 'internal', 'The server failed to handle the request.');
}

/**
 * Node's `clientError`: a request the HTTP parser refuses (a GET body without a length, a bad
 * header) never reaches Fastify, so it is answered here, as problem+json with a trace id.
 */
export function clientErrorResponse(err: NodeJS.ErrnoException & { rawPacket?: unknown }): string {
  const traceId = newTraceId();
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const [status, kind, title] = tooLarge
    ? [431, 'validation-failed', 'Request Header Fields Too Large']
    : [400, 'validation-failed', 'Bad Request'];
  const body = JSON.stringify({
    type: `urn:fos:error:${kind}`,
    title,
    status,
    detail: `The HTTP request is malformed (${err.code ?? 'parse error'}). (support reference: ${traceId})`,
    trace_id: traceId,
  });
  return (
    `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json; charset=utf-8\r\n` +
    `x-trace-id: ${traceId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

const badText = (s: string) => s.includes('\u0000') || !isWellFormed(s);

/**
 * Path of the first string holding a NUL character or a lone UTF-16 surrogate ("\ud800"), in
 * the `body.a.0` form validation errors use.
 */
function nulPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return badText(value) ? path : undefined;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (badText(k)) return `${path}.${k.replaceAll('\u0000', '\\u0000').replace(/[\ud800-\udfff]/gu, '\ufffd')}`;
    const hit = nulPath(v, `${path}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

export function registerProblemHandlers(app: FastifyInstance) {
  // PostgreSQL text cannot hold NUL characters or lone surrogates (SQLite can): refuse them in
  // every request part, on both databases alike, as a validation error instead of a database failure.
  // (Hooks that never wait are written with `done`: no promise per request.)
  app.addHook('preValidation', (request, _reply, done) => {
    const path = nulPath(request.params, 'params') ?? nulPath(request.query, 'query') ?? nulPath(request.body, 'body');
    done(path ? invalid(path, 'must be valid Unicode text without NUL (\\u0000) characters or lone surrogates') : undefined);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      if (error.kind === 'internal') request.log.error({ err: error }, 'internal error');
      // Busy or an outside service's answer still unknown: the client comes back (CLI retries).
      if (error.kind === 'unavailable' && !reply.hasHeader('retry-after')) reply.header('retry-after', 2);
      return sendProblem(request, reply, error.kind, error.message, error.extra);
    }
    if (error.validation) {
      const errors = dedupe(validationErrors(error));
      const summary = errors.map((e) => `${e.path} ${e.message}`).join('; ');
      return sendProblem(request, reply, 'validation-failed', `Invalid request: ${summary}.`, { errors });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendProblem(request, reply, 'validation-failed', 'The request body is not valid JSON.', {
          errors: [{ path: 'body', message: 'is not valid JSON' }],
        });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendProblem(request, reply, 'payload-too-large', 'The request body is too large.');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendProblem(request, reply, 'unsupported-media-type', 'Send request bodies as application/json.');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      if (error.statusCode === 404) return sendProblem(request, reply, 'not-found', error.message);
      return sendProblem(request, reply, 'validation-failed', error.message, {
        errors: [{ path: 'request', message: error.message }],
      });
    }
    // A forged cursor can carry a value of the wrong type for its sort column (cursors are
    // opaque, not signed): the database layer refuses it, and that is the client's error.
    if ((error as Error).name === 'PrismaClientValidationError' && (request.query as Record<string, unknown> | undefined)?.cursor) {
      const message = 'is not a cursor of this list and sort (use meta.next_cursor of the previous page)';
      return sendProblem(request, reply, 'validation-failed', `Invalid request: query.cursor ${message}.`, {
        errors: [{ path: 'query.cursor', message }],
      });
    }
    if (isTransientFailure(error)) {
      // Busy (a lock or a transaction's time ran out) or the connection was cut: the client may
      // repeat the request (the CLI does after retry-after for reads and writes with an Idempotency-Key).
      request.log.warn({ err: error }, 'database busy or unreachable: answered 503');
      reply.header('retry-after', 1);
      return sendProblem(request, reply, 'unavailable', 'The database is busy or its connection was interrupted; retry in a moment.');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, 'internal', 'The server failed to handle the request.');
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 'not-found', `No operation ${request.method} ${request.url.split('?')[0]}.`),
  );
}
