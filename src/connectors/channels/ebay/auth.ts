import { type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import { EBAY_SCOPES, type EbayCredentials } from './types.js';
import { cachedAccessToken, postTokenForm, tokenFromAnswer } from '../oauth-token.js';

// eBay User access tokens (docs/sales-channels.md §eBay; developer.ebay.com "Using a refresh token
// to update a User access token"): POST <api base>/identity/v1/oauth2/token with Basic
// client_id:client_secret and the form grant_type=refresh_token, refresh_token, scope. The token
// lives about 2 hours (expires_in); fos keeps it sealed with the connection, asks for a new one
// when less than oauth-token.ts REFRESH_MARGIN_MS is left, and once more when eBay answers 401.

/** The refresh-token grant: a new User access token and when it expires. */
export async function refreshUserToken(conn: OpenConnection, env: ChannelEnv, now = Date.now()) {
  const c = conn.credentials as EbayCredentials;
  const url = `${conn.api_base_url}/identity/v1/oauth2/token`;
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: c.refresh_token, scope: EBAY_SCOPES.join(' ') });
  const res = await postTokenForm(env, {
    url,
    platform: 'ebay',
    form,
    headers: { authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}` },
    retrySafe: true, // minting a token twice is harmless: the refresh token stays valid
  });
  return tokenFromAnswer(
    res,
    now,
    7200,
    (why) => `eBay refused the token refresh (${why}): check the client id, client secret and refresh token`,
  );
}

/** The token to send: the cached one while it has time left, else a new one (persisted sealed). */
export const ebayToken = (conn: OpenConnection, env: ChannelEnv, opts: { force?: boolean } = {}): Promise<string> =>
  cachedAccessToken(conn, () => refreshUserToken(conn, env), opts);
