import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { codeChallenge, etsyAuthorizeUrl, exchangeEtsyCode, newPkce } from '../../src/connectors/channels/etsy/oauth.js';
import { ChannelCallError } from '../../src/connectors/channels/http.js';
import { etsyDouble, type EtsyDouble } from '../helpers/etsy-double.js';

// Etsy's authorization-code grant with PKCE, against the loopback double: the connect URL's
// parameters, the S256 challenge, and the code exchange the double checks against that challenge.

const env = { allowPrivate: true };
const redirectUri = 'https://fos.example/v1/channels/etsy/callback';
let double: EtsyDouble;

beforeAll(async () => {
  double = await etsyDouble();
});
afterAll(() => double.close());

function start() {
  const pkce = newPkce();
  const url = etsyAuthorizeUrl({
    connectBase: 'https://www.etsy.com/',
    clientId: double.keystring,
    redirectUri,
    state: pkce.state,
    codeChallenge: pkce.code_challenge,
  });
  return { pkce, url };
}

const exchange = (code: string, codeVerifier: string) =>
  exchangeEtsyCode(
    { apiBaseUrl: double.url, clientId: double.keystring, clientSecret: double.sharedSecret, redirectUri, code, codeVerifier },
    env,
  );

describe('Etsy OAuth 2.0 with PKCE', () => {
  it('makes a verifier of 43-128 unreserved characters and its S256 challenge (RFC 7636 appendix B)', () => {
    const { state, code_verifier, code_challenge } = newPkce();
    expect(code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(code_challenge).toBe(createHash('sha256').update(code_verifier).digest('base64url'));
    expect(codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(newPkce().state).not.toBe(state);
  });

  it('builds the connect URL Etsy documents: scopes space-separated as %20, S256', () => {
    const { pkce, url } = start();
    expect(url.startsWith('https://www.etsy.com/oauth/connect?response_type=code&redirect_uri=')).toBe(true);
    expect(url).toContain('scope=transactions_r%20transactions_w%20listings_r%20listings_w%20shops_r');
    const q = new URL(url).searchParams;
    expect(Object.fromEntries(q)).toEqual({
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'transactions_r transactions_w listings_r listings_w shops_r',
      client_id: double.keystring,
      state: pkce.state,
      code_challenge: pkce.code_challenge,
      code_challenge_method: 'S256',
    });
  });

  it('exchanges the code with its verifier for an access token and a refresh token', async () => {
    const { pkce, url } = start();
    const { code } = double.consent(url);
    const t = await exchange(code, pkce.code_verifier);
    expect(t.access_token).toBe(double.tokens.at(-1));
    expect(t.refresh_token).toBe(double.refreshToken);
    expect(Date.parse(t.token_expires_at)).toBeGreaterThan(Date.now());
    const sent = double.calls.filter((c) => c.path === '/v3/public/oauth/token').at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.body).toEqual({
      grant_type: 'authorization_code',
      client_id: double.keystring,
      redirect_uri: redirectUri,
      code,
      code_verifier: pkce.code_verifier,
    });
  });

  it('is refused, permanently, for a wrong verifier and for a code used twice', async () => {
    const { url } = start();
    const { code } = double.consent(url);
    const wrong = await exchange(code, newPkce().code_verifier).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ChannelCallError);
    expect((wrong as ChannelCallError).message).toContain('code_verifier is invalid');
    expect((wrong as ChannelCallError).permanent).toBe(true);
    const again = await exchange(code, newPkce().code_verifier).catch((e: unknown) => e);
    expect((again as Error).message).toContain('Invalid authorization code');
  });
});
