import { createHash, randomBytes } from 'node:crypto';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import { postTokenForm, tokenFromAnswer, type MintedToken } from '../oauth-token.js';
import type { ChannelConsent } from '../connector.js';

// Etsy's OAuth 2.0 authorization-code grant with PKCE (developers.etsy.com "Authentication"):
// the seller is sent to https://www.etsy.com/oauth/connect with response_type=code, redirect_uri,
// scope (space-separated), client_id (the keystring), state and code_challenge (S256 of the
// verifier); Etsy redirects back with ?code&state, and the code is exchanged at
// POST <api base>/v3/public/oauth/token with grant_type=authorization_code, client_id,
// redirect_uri, code and code_verifier (form-encoded). The answer carries the access token
// (an hour) and the refresh token the connection keeps (auth.ts refreshes with it).

/** What fos reads and writes: receipts and their shipments, listings and their inventory, the shop. */
export const ETSY_SCOPES = ['transactions_r', 'transactions_w', 'listings_r', 'listings_w', 'shops_r'] as const;

/** Etsy's own connect page; configurable so tests and staging can point elsewhere. */
export const ETSY_CONNECT_BASE = 'https://www.etsy.com';

/** Base64url without padding, as RFC 7636 asks for the verifier and the challenge. */
const base64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export const codeChallenge = (verifier: string) => base64url(createHash('sha256').update(verifier, 'ascii').digest());

/** A fresh state (the callback's only credential) and verifier: 32 random bytes each, 43 characters. */
export function newPkce(): { state: string; code_verifier: string; code_challenge: string } {
  const code_verifier = base64url(randomBytes(32));
  return { state: base64url(randomBytes(32)), code_verifier, code_challenge: codeChallenge(code_verifier) };
}

/** The URL the seller opens to grant fos access to their shop. */
export function etsyAuthorizeUrl(p: {
  connectBase?: string;
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
}): string {
  const q = new URLSearchParams({
    response_type: 'code',
    redirect_uri: p.redirectUri,
    scope: ETSY_SCOPES.join(' '),
    client_id: p.clientId,
    state: p.state,
    code_challenge: p.codeChallenge,
    code_challenge_method: 'S256',
  });
  // URLSearchParams writes spaces as '+'; Etsy's documented example separates scopes with %20.
  return `${(p.connectBase ?? ETSY_CONNECT_BASE).replace(/\/+$/, '')}/oauth/connect?${q.toString().replace(/\+/g, '%20')}`;
}

/** The code from the callback exchanged for the first access token and the refresh token to keep. */
export async function exchangeEtsyCode(
  p: { apiBaseUrl: string; clientId: string; clientSecret: string; redirectUri: string; code: string; codeVerifier: string },
  env: ChannelEnv,
  now = Date.now(),
): Promise<MintedToken & { refresh_token: string }> {
  const url = `${p.apiBaseUrl.replace(/\/+$/, '')}/v3/public/oauth/token`;
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    code: p.code,
    code_verifier: p.codeVerifier,
  });
  const res = await postTokenForm(env, {
    url,
    platform: 'etsy',
    form,
    headers: { 'x-api-key': `${p.clientId}:${p.clientSecret}` },
    retrySafe: false, // a code is good once: a resend after Etsy took it would hide the first answer
  });
  const t = tokenFromAnswer(res, now, 3600, (why) => `Etsy refused the authorization code (${why}): start the connection again`);
  const refresh = (JSON.parse(res.body.toString('utf8')) as { refresh_token?: unknown }).refresh_token;
  if (typeof refresh !== 'string' || !refresh)
    throw new ChannelCallError('Etsy answered the code exchange without a refresh token', true, res.status);
  return { ...t, refresh_token: refresh };
}

/** The connector's consent (docs/sales-channels.md §3e step 2): the page and the exchange above. */
export const etsyConsent: ChannelConsent = {
  begin(app) {
    const { state, code_verifier, code_challenge } = newPkce();
    const authorizeUrl = etsyAuthorizeUrl({
      connectBase: app.connectBaseUrl,
      clientId: app.clientId,
      redirectUri: app.redirectUri,
      state,
      codeChallenge: code_challenge,
    });
    return { state, verifier: code_verifier, authorizeUrl };
  },
  async exchange(app, code, verifier, env) {
    const t = await exchangeEtsyCode(
      {
        apiBaseUrl: app.apiBaseUrl,
        clientId: app.clientId,
        clientSecret: app.clientSecret,
        redirectUri: app.redirectUri,
        code,
        codeVerifier: verifier,
      },
      env,
    );
    return { access_token: t.access_token, token_expires_at: t.token_expires_at, refresh_token: t.refresh_token };
  },
};
