import { type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import type { EtsyCredentials } from './types.js';
import { cachedAccessToken, postTokenForm, tokenFromAnswer, type MintedToken } from '../oauth-token.js';

// Etsy access tokens (docs/sales-channels.md §3e; developers.etsy.com "Authentication",
// "Requesting a Refresh OAuth Token"): POST <api base>/v3/public/oauth/token with the form
// grant_type=refresh_token, client_id=<keystring>, refresh_token. The access token lives an hour
// (expires_in 3600); the answer carries a refresh token too, kept in place of the old one so the
// connection's 90 days start again at every refresh. fos keeps both sealed with the connection,
// asks for a new access token when less than oauth-token.ts REFRESH_MARGIN_MS is left, and once
// more when Etsy answers 401.

/** x-api-key: every Open API call names the app by its keystring and shared secret. */
export const apiKey = (c: EtsyCredentials) => `${c.client_id}:${c.client_secret}`;

/** The refresh-token grant: a new access token, when it expires, and the refresh token to keep. */
export async function refreshEtsyToken(conn: OpenConnection, env: ChannelEnv, now = Date.now()) {
  const c = conn.credentials as EtsyCredentials;
  const url = `${conn.api_base_url}/v3/public/oauth/token`;
  const form = new URLSearchParams({ grant_type: 'refresh_token', client_id: c.client_id, refresh_token: c.refresh_token });
  const res = await postTokenForm(env, {
    url,
    platform: 'etsy',
    form,
    headers: { 'x-api-key': apiKey(c) },
    retrySafe: false, // a refresh Etsy took may have replaced the refresh token
  });
  const t: MintedToken & { refresh_token?: string } = tokenFromAnswer(
    res,
    now,
    3600,
    (why) => `Etsy refused the token refresh (${why}): check the keystring and the refresh token`,
  );
  try {
    const next = (JSON.parse(res.body.toString('utf8')) as { refresh_token?: unknown }).refresh_token;
    if (typeof next === 'string' && next) t.refresh_token = next;
  } catch {
    // tokenFromAnswer read it as JSON already; nothing more to take.
  }
  return t;
}

/** The token to send: the cached one while it has time left, else a new one (persisted sealed, with the new refresh token). */
export const etsyToken = (conn: OpenConnection, env: ChannelEnv, opts: { force?: boolean } = {}): Promise<string> =>
  cachedAccessToken(conn, () => refreshEtsyToken(conn, env), opts);
