import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import { authorizations } from '../../domain/oauth/index.js';
import { connectionsForPerson, revokeConnection } from '../../domain/oauth/index.js';
import { PRESETS, type Preset } from '../../domain/oauth/index.js';
import { redirectUriProblem } from '../../domain/oauth/index.js';
import { signIn, signOut, type SessionUser } from '../../domain/users/index.js';
import { UnauthLimiter } from '../rate-limit/unauth.js';
import { sendPage } from './html.js';
import { connectionsPage, consentPage, messagePage, noAccessPage, signInPage, teamChoicePage } from './pages.js';
import { consentPath } from './metadata.js';
import {
  checkLoginCsrf,
  checkSessionCsrf,
  clearSession,
  currentPerson,
  loginCsrf,
  sessionCsrf,
  sessionSecret,
  setSession,
} from './session.js';

// The pages a person sees: sign in, choose a team, choose what the agent may do, approve or deny;
// and the MCP connections settings page with its Disconnect buttons.

type Form = Record<string, string | string[] | undefined>;
const field = (body: unknown, name: string): string | undefined => {
  const v = (body as Form | undefined)?.[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[0] : undefined;
};
const fields = (body: unknown, name: string): string[] => {
  const v = (body as Form | undefined)?.[name];
  return typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
};
const config = { public: true };
const schema = { hide: true };
const CONNECTIONS = '/oauth/connections';

/** Teams where the person may connect an agent (Write MCP). */
const eligibleTeams = (person: SessionUser) => person.teams.filter((t) => t.permissions.has('WRITE_MCP'));

/**
 * Where the consent form's redirect may go (CSP form-action): the client's redirect origin, or
 * its private-use scheme (`com.example.app:`). Never wider: a URI that is neither (registered
 * before redirect URIs were checked) gets no target beyond 'self', so the redirect is blocked.
 */
function formTargets(redirectUri: string): string[] {
  if (redirectUriProblem(redirectUri)) return [];
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? [url.origin] : [url.protocol];
}

export default async function browserRoutes(app: FastifyInstance) {
  const signInFailures = new UnauthLimiter(20);

  const signInForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    o: { requestId?: string; clientName?: string; error?: string; email?: string; status?: number },
  ) =>
    sendPage(
      reply,
      'Sign in',
      signInPage({
        csrf: loginCsrf(app, request, reply),
        next: o.requestId ?? '',
        error: o.error,
        clientName: o.clientName,
        email: o.email,
      }),
      { status: o.status },
    );

  const expiredPage = (reply: FastifyReply) =>
    sendPage(
      reply,
      'Request expired',
      messagePage(
        'This sign-in request has expired',
        'It was already answered, or it is more than 15 minutes old. Start connecting again from your agent.',
      ),
      { status: 400 },
    );
  const sessionEnded = (request: FastifyRequest, reply: FastifyReply, requestId?: string) =>
    signInForm(request, reply, { requestId, status: 401, error: 'Your session ended. Sign in again.' });
  const formExpired = (reply: FastifyReply) =>
    sendPage(reply, 'Form expired', messagePage('This form expired', 'Reload the page and try again.'), { status: 403 });

  async function showConsent(
    request: FastifyRequest,
    reply: FastifyReply,
    pendingId: string,
    teamId: string | undefined,
    extra: { error?: string; status?: number; preset?: Preset; custom?: string[]; name?: string } = {},
  ) {
    const pending = await authorizations.pendingAuthorization(app.db, pendingId);
    if (!pending) return expiredPage(reply);
    const person = await currentPerson(app, request);
    if (!person) return signInForm(request, reply, { requestId: pending.id, clientName: pending.clientName });
    const csrf = sessionCsrf(sessionSecret(request)!);
    const teams = eligibleTeams(person);
    const targets = formTargets(pending.redirectUri);
    if (!teams.length)
      return sendPage(reply, 'No access', noAccessPage({ pending, personName: person.displayName, csrf }), {
        status: 403,
        formTargets: targets,
      });
    const team = teams.find((t) => t.teamId === teamId) ?? (teams.length === 1 ? teams[0] : undefined);
    if (!team) return sendPage(reply, 'Choose a team', teamChoicePage({ pending, teams }));
    return sendPage(
      reply,
      `Connect ${pending.clientName}`,
      consentPage({
        pending,
        personName: person.displayName,
        team,
        severalTeams: teams.length > 1,
        catalog: app.agentCatalog(),
        csrf,
        ...extra,
      }),
      { status: extra.status, formTargets: targets },
    );
  }

  app.get('/oauth', { config, schema }, async (_request, reply) => reply.redirect(CONNECTIONS, 303));

  app.get('/oauth/consent', { config, schema }, async (request, reply) => {
    const q = request.query as Form;
    return showConsent(request, reply, field(q, 'request') ?? '', field(q, 'team'));
  });

  app.post('/oauth/sign-in', { config, schema }, async (request, reply) => {
    const body = request.body;
    const requestId = field(body, 'next') || undefined;
    const email = (field(body, 'email') ?? '').slice(0, 254);
    if (!checkLoginCsrf(request, field(body, 'csrf'))) {
      return signInForm(request, reply, { requestId, email, status: 403, error: 'The form expired. Sign in again.' });
    }
    const now = Date.now();
    const wait = signInFailures.retryAfter(request.ip, now);
    if (wait)
      return signInForm(request, reply, {
        requestId,
        email,
        status: 429,
        error: `Too many failed sign-ins from this address; try again in ${wait} s.`,
      });
    const secret = await signIn(app.db, email, (field(body, 'password') ?? '').slice(0, 1024));
    if (!secret) {
      signInFailures.fail(request.ip, now);
      return signInForm(request, reply, { requestId, email, status: 401, error: 'Wrong email or password, or the account is disabled.' });
    }
    setSession(app, request, reply, secret);
    // Only ever back to a consent request by its id, or to the connections page: no open redirect.
    return reply.redirect(requestId ? consentPath(requestId) : CONNECTIONS, 303);
  });

  app.post('/oauth/consent', { config, schema }, async (request, reply) => {
    const body = request.body;
    const requestId = field(body, 'request') ?? '';
    const person = await currentPerson(app, request);
    if (!person) return sessionEnded(request, reply, requestId);
    if (!checkSessionCsrf(request, field(body, 'csrf'))) return formExpired(reply);
    try {
      if (field(body, 'action') === 'deny') return reply.redirect(await authorizations.denyAuthorization(app.db, requestId), 303);
      const preset = field(body, 'preset') as Preset;
      const teamId = field(body, 'team') ?? '';
      const custom = fields(body, 'permissions');
      const name = field(body, 'name') ?? '';
      if (!PRESETS.includes(preset))
        return showConsent(request, reply, requestId, teamId, { error: 'Choose what the agent may do.', status: 400, custom, name });
      try {
        const { redirect } = await authorizations.approveAuthorization(app.db, {
          requestId,
          userId: person.userId,
          teamId,
          preset,
          custom,
          name,
        });
        return reply.redirect(redirect, 303);
      } catch (err) {
        if (err instanceof DomainError && err.kind !== 'conflict') {
          const status = err.kind === 'forbidden' ? 403 : 400;
          return showConsent(request, reply, requestId, teamId, { error: err.message, status, preset, custom, name });
        }
        throw err;
      }
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'conflict') return expiredPage(reply);
      throw err;
    }
  });

  app.get(CONNECTIONS, { config, schema }, async (request, reply) => {
    const person = await currentPerson(app, request);
    if (!person) return signInForm(request, reply, {});
    const rows = await connectionsForPerson(
      app.db,
      eligibleTeams(person).map((t) => t.teamId),
    );
    const notice = field(request.query, 'disconnected') ? 'Disconnected. Its tokens no longer work.' : undefined;
    return sendPage(
      reply,
      'MCP connections',
      connectionsPage({ personName: person.displayName, csrf: sessionCsrf(sessionSecret(request)!), rows, notice }),
    );
  });

  app.post(`${CONNECTIONS}/disconnect`, { config, schema }, async (request, reply) => {
    const person = await currentPerson(app, request);
    if (!person) return sessionEnded(request, reply);
    if (!checkSessionCsrf(request, field(request.body, 'csrf'))) return formExpired(reply);
    const teamId = field(request.body, 'team') ?? '';
    if (!eligibleTeams(person).some((t) => t.teamId === teamId)) {
      return sendPage(reply, 'Not allowed', messagePage('Not allowed', "Managing that team's connections needs Write MCP on it."), {
        status: 403,
      });
    }
    await revokeConnection(app.db, teamId, field(request.body, 'id') ?? '');
    return reply.redirect(`${CONNECTIONS}?disconnected=1`, 303);
  });

  app.post('/oauth/sign-out', { config, schema }, async (request, reply) => {
    if (checkSessionCsrf(request, field(request.body, 'csrf'))) await signOut(app.db, sessionSecret(request));
    clearSession(reply);
    return reply.redirect(CONNECTIONS, 303);
  });
}
