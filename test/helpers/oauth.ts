// The OAuth sign-in flow of /mcp driven over HTTP with fetch: a person, a registered client, PKCE,
// the consent pages with their cookies and CSRF fields, the token endpoint. The browser version
// (real Chromium) is test/e2e/mcp-oauth-browser.test.ts; this one serves the refusal tests.

import { createHash, randomBytes } from 'node:crypto';
import { createRole } from '../../src/domain/keys/roles.js';
import { createUser } from '../../src/domain/users/users.js';
import type { Permission } from '../../src/contract/permissions.js';
import type { Db } from '../../src/db/types.js';

let n = 0;
export const PASSWORD = 'correct horse battery';

/** A person in teamId: ADMIN, or MEMBER holding exactly `permissions` through one role. */
export async function person(db: Db, teamId: string, permissions?: Permission[]) {
  const roleIds = permissions ? [(await createRole(db, teamId, { name: `person-role-${++n}-${Date.now()}`, permissions })).id] : [];
  const email = `person${++n}-${Date.now()}@example.test`;
  const user = await createUser(
    db,
    {
      email,
      display_name: `Person ${n}`,
      password: PASSWORD,
      team_id: teamId,
      power_role: permissions ? 'MEMBER' : 'ADMIN',
      role_ids: roleIds,
    },
    null,
  );
  return { id: user.id, email, password: PASSWORD, name: user.display_name };
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function register(base: string, redirectUri: string, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test Agent', redirect_uris: [redirectUri], ...extra }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await res.json()) as { client_id: string; client_secret?: string; token_endpoint_auth_method: string };
}

export function authorizeUrl(
  base: string,
  p: { clientId: string; redirectUri: string; challenge: string; state?: string; resource?: string; method?: string },
) {
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    code_challenge: p.challenge,
    code_challenge_method: p.method ?? 'S256',
    state: p.state ?? 'st-123',
    resource: p.resource ?? `${base}/mcp`,
  }).toString();
  return url.href;
}

/** A cookie jar and form helpers over fetch, no redirects followed. */
export class Browser {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  async request(pathOrUrl: string, init: { method?: string; form?: Record<string, string | string[]> } = {}) {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    let body: string | undefined;
    if (init.form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(init.form)) for (const one of [v].flat()) params.append(k, one);
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : this.base + pathOrUrl;
    const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const [name, ...value] = pair.split('=');
      const expired = attrs.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
    return res;
  }

  static csrf(html: string) {
    const m = /name="csrf" value="([^"]+)"/.exec(html);
    if (!m) throw new Error('no csrf field in page');
    return m[1];
  }

  /** Submits the sign-in form shown in `html` (its CSRF token and `next` request id). */
  signIn(html: string, who: { email: string; password: string }) {
    const next = /name="next" value="([^"]*)"/.exec(html)![1];
    return this.request('/oauth/sign-in', { form: { csrf: Browser.csrf(html), next, email: who.email, password: who.password } });
  }

  /** GET /oauth/authorize, sign in, approve with a preset; returns the final redirect's URL. */
  async approve(
    authorize: string,
    who: { email: string; password: string },
    choice: { preset?: string; permissions?: string[]; name?: string; team?: string } = {},
  ) {
    const start = await this.request(authorize);
    if (start.status !== 302) throw new Error(`authorize: ${start.status} ${await start.text()}`);
    const consent = start.headers.get('location')!;
    let page = await this.request(consent);
    let html = await page.text();
    if (html.includes('action="/oauth/sign-in"')) {
      const signed = await this.signIn(html, who);
      if (signed.status !== 303) throw new Error(`sign-in: ${signed.status}`);
      page = await this.request(signed.headers.get('location')! + (choice.team ? `&team=${choice.team}` : ''));
      html = await page.text();
    }
    const requestId = /name="request" value="([^"]+)"/.exec(html)![1];
    const team = /name="team" value="([^"]+)"/.exec(html)?.[1] ?? choice.team ?? '';
    const res = await this.request('/oauth/consent', {
      form: {
        csrf: Browser.csrf(html),
        request: requestId,
        team,
        preset: choice.preset ?? 'READ_ONLY',
        permissions: choice.permissions ?? [],
        name: choice.name ?? 'My agent',
        action: 'approve',
      },
    });
    return { status: res.status, location: res.headers.get('location'), html: res.status === 303 ? '' : await res.text(), requestId };
  }
}

export async function token(base: string, form: Record<string, string>) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
