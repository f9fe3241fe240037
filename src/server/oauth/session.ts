import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_MS, sessionUser, type SessionUser } from '../../domain/users/index.js';

// Cookies and CSRF tokens of the browser pages. The session cookie is HttpOnly, SameSite=Lax,
// Secure when the server is reached over TLS, and scoped to /oauth. Forms of a signed-in person
// carry a token derived from their session secret; the sign-in form, before any session,
// carries the value of a random cookie (double submit).

export const SESSION_COOKIE = 'fos_session';
const LOGIN_CSRF_COOKIE = 'fos_csrf';
const COOKIE_PATH = '/oauth';

const cookieOptions = (app: FastifyInstance, request: FastifyRequest, maxAgeS: number) => ({
  path: COOKIE_PATH,
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: app.originOf(request).startsWith('https:'),
  maxAge: maxAgeS,
});

function same(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export const sessionSecret = (request: FastifyRequest) => request.cookies[SESSION_COOKIE];

export async function currentPerson(app: FastifyInstance, request: FastifyRequest): Promise<SessionUser | null> {
  return sessionUser(app.db, sessionSecret(request));
}

export function setSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, secret: string) {
  reply.setCookie(SESSION_COOKIE, secret, cookieOptions(app, request, SESSION_TTL_MS / 1000));
  reply.clearCookie(LOGIN_CSRF_COOKIE, { path: COOKIE_PATH });
}

export function clearSession(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
}

/** The sign-in form's token: the random cookie's value (set now when absent). */
export function loginCsrf(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[LOGIN_CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const value = randomBytes(32).toString('base64url');
  reply.setCookie(LOGIN_CSRF_COOKIE, value, cookieOptions(app, request, 3600));
  return value;
}

export const checkLoginCsrf = (request: FastifyRequest, field: string | undefined) => {
  const cookie = request.cookies[LOGIN_CSRF_COOKIE];
  return Boolean(cookie) && same(field, cookie!);
};

/** A signed-in person's forms: bound to their session secret, which only their browser holds. */
export const sessionCsrf = (secret: string) => createHmac('sha256', secret).update('fos csrf').digest('base64url');

export const checkSessionCsrf = (request: FastifyRequest, field: string | undefined) => {
  const secret = sessionSecret(request);
  return Boolean(secret) && same(field, sessionCsrf(secret!));
};
