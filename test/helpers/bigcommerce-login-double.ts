// A loopback login.bigcommerce.com speaking the documented token exchange of a single-click app
// (developer.bigcommerce.com, "Implementing OAuth"): POST /oauth2/token with client_id,
// client_secret, code, context, scope, grant_type=authorization_code and redirect_uri answers
// {access_token, scope, user: {id, username, email}, owner, context, account_uuid}; a code is good
// once; a wrong client, code or redirect_uri is refused. It records what fos sent. Plus the
// signed_payload_jwt BigCommerce sends to load and uninstall (HS256 with the client secret).

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';

export interface LoginDouble {
  url: string;
  /** Codes BigCommerce handed the merchant's browser: each becomes `token` for `context` (stores/{hash}), once. */
  /** anyContext: the code is taken whatever context is sent, and answered with its own (fos must notice). */
  codes: Map<string, { context: string; token: string; email?: string; anyContext?: boolean }>;
  calls: { headers: IncomingMessage['headers']; body: any }[];
  close(): Promise<void>;
}

export async function bigcommerceLoginDouble(app: { clientId: string; clientSecret: string; redirectUri: string }): Promise<LoginDouble> {
  const codes: LoginDouble['codes'] = new Map();
  const calls: LoginDouble['calls'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== '/oauth2/token') return answer(404, { error: 'Not found' });
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        return answer(400, { error: 'The request body is not valid JSON' });
      }
      calls.push({ headers: req.headers, body });
      if (body.client_id !== app.clientId || body.client_secret !== app.clientSecret)
        return answer(401, { error: 'Invalid client id or secret' });
      if (body.grant_type !== 'authorization_code') return answer(400, { error: 'Unsupported grant type' });
      if (body.redirect_uri !== app.redirectUri) return answer(400, { error: 'Invalid redirect_uri' });
      const grant = codes.get(body.code);
      if (!grant || (body.context !== grant.context && !grant.anyContext)) return answer(400, { error: 'Invalid verification code' });
      codes.delete(body.code);
      answer(200, {
        access_token: grant.token,
        scope: body.scope,
        user: { id: 24654, username: 'merchant', email: grant.email ?? 'owner@store.example' },
        owner: { id: 24654, username: 'merchant', email: grant.email ?? 'owner@store.example' },
        context: grant.context,
        account_uuid: 'a6d12f8e-4fb1-4c1c-9c1e-000000000000',
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    codes,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A signed_payload_jwt as BigCommerce makes it for load, uninstall and remove_user. */
export function signedPayload(opts: {
  secret: string;
  clientId: string;
  storeHash: string;
  expiresIn?: number;
  sub?: string;
  alg?: 'HS256' | 'HS512';
}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    user: { id: 24654, email: 'owner@store.example', locale: 'en-US' },
    owner: { id: 24654, email: 'owner@store.example' },
    url: '/',
    channel_id: null,
  })
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer('bc')
    .setAudience(opts.clientId)
    .setSubject(opts.sub ?? `stores/${opts.storeHash}`)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + (opts.expiresIn ?? 86_400))
    .setJti(randomUUID())
    .sign(new TextEncoder().encode(opts.secret));
}
