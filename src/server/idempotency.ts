import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../domain/errors.js';
import type { Answer } from '../domain/idempotency/index.js';

// The Idempotency-Key header of writes that take one (docs/serve.md, "Idempotency keys").

const KEY_RE = /^[\x21-\x7e]{1,200}$/;

/** The request's Idempotency-Key, or undefined; 400 when it is not 1-200 visible ASCII characters. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return undefined;
  if (!KEY_RE.test(key)) throw invalid('headers.idempotency-key', 'must be 1 to 200 visible ASCII characters');
  return key;
}

/** Sends a domain answer; a replayed one says so in `idempotent-replayed: true`. */
export function sendAnswer<T>(reply: FastifyReply, answer: Answer<T>) {
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(answer.status).send(answer.body);
}

/** The sentence every operation taking an Idempotency-Key adds to its description. */
export const KEY_NOTE =
  'With an Idempotency-Key header the write is applied once per key: a repeat answers the first answer ' +
  '(header idempotent-replayed: true); the same key with another body is a 409.';
