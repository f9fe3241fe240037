import { assertAllowedUrl, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import type { AmazonCredentials } from './types.js';
import { cachedAccessToken, postTokenForm, tokenFromAnswer } from '../oauth-token.js';

// Login with Amazon (SP-API docs, "Connecting to the SP-API", step 1): the seller's refresh token
// and the app's client id and secret are exchanged at the LWA token endpoint (form body
// grant_type=refresh_token, refresh_token, client_id, client_secret) for an access token of an
// hour ({access_token, token_type, expires_in, refresh_token}); LWA's refusals are
// {error, error_description}. The token is kept sealed with the connection and asked for again
// when less than oauth-token.ts REFRESH_MARGIN_MS of it is left, or once when SP-API refuses it (client.ts).

export async function lwaToken(c: AmazonCredentials, env: ChannelEnv, now = Date.now()) {
  assertAllowedUrl(c.token_url, env);
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: c.refresh_token,
    client_id: c.client_id,
    client_secret: c.client_secret,
  });
  const res = await postTokenForm(env, {
    url: c.token_url,
    platform: 'amazon',
    form,
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    retrySafe: true, // a token request changes nothing: safe to send again
  });
  return tokenFromAnswer(
    res,
    now,
    3600,
    (why) => `Login with Amazon refused the token request (${why}): check the refresh token and the app's client id and secret`,
  );
}

/** The access token to send: the cached one while it has time left, else a new one (persisted sealed). */
export const amazonToken = (conn: OpenConnection, env: ChannelEnv, opts: { force?: boolean } = {}): Promise<string> =>
  cachedAccessToken(conn, () => lwaToken(conn.credentials as AmazonCredentials, env), opts);
