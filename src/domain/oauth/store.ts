import type { Db, Prisma, TxClient } from '../../db/types.js';
import { membershipsInclude } from '../users/index.js';

// The oauth area's data access (issue 38 item 4): registered clients, authorization requests,
// agent connections and their tokens, through Prisma. The flows' rules (compare-and-set on every
// step, rotation, revocation) stay in authorizations.ts, tokens.ts and connections.ts; each
// function here is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

// Clients (RFC 7591).

export function insertClient(client: Client, data: Prisma.OAuthClientUncheckedCreateInput) {
  return client.oAuthClient.create({ data });
}

export function findClient(client: Client, id: string) {
  return client.oAuthClient.findUnique({ where: { id } });
}

// Authorization requests.

export function insertAuthorization(client: Client, data: Prisma.OAuthAuthorizationUncheckedCreateInput) {
  return client.oAuthAuthorization.create({ data });
}

/** Requests that expired before `before` (a lazy PrismaPromise: it runs when awaited or caught). */
export function deleteAuthorizationsExpiredBefore(client: Client, before: Date) {
  return client.oAuthAuthorization.deleteMany({ where: { expires_at: { lt: before } } });
}

export function findAuthorization(client: Client, id: string) {
  return client.oAuthAuthorization.findUnique({ where: { id } });
}

export function findAuthorizationByCode(client: Client, codeHash: string) {
  return client.oAuthAuthorization.findUnique({ where: { code_hash: codeHash } });
}

/** Decides the request if still undecided and unexpired at `now` (compare-and-set); the count decided. */
export function decideAuthorization(client: Client, id: string, now: Date, data: Prisma.OAuthAuthorizationUpdateManyMutationInput) {
  return client.oAuthAuthorization.updateMany({ where: { id, decided_at: null, expires_at: { gt: now } }, data });
}

/** Marks the request's code used if unused and unexpired at `now` (compare-and-set); the count taken. */
export function useAuthorizationCode(tx: TxClient, id: string, now: Date) {
  return tx.oAuthAuthorization.updateMany({ where: { id, used_at: null, code_expires_at: { gt: now } }, data: { used_at: now } });
}

// Connections.

/** A connection as presented: its person (with memberships) and its team's name. */
const connectionInclude = {
  user: { select: { id: true, email: true, display_name: true, state: true, ...membershipsInclude } },
  team: { select: { name: true } },
} as const;

export function findTeamConnection(client: Client, teamId: string, id: string) {
  return client.mcpConnection.findFirst({ where: { id, team_id: teamId }, include: connectionInclude });
}

export type ConnectionRow = NonNullable<Awaited<ReturnType<typeof findTeamConnection>>>;

/** One page of connections (pageArgs' window), as presented. */
export function findConnectionPage(
  client: Client,
  window: { where: Prisma.McpConnectionWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.mcpConnection.findMany({ ...window, include: connectionInclude });
}

/** The newest 200 connections of these teams, as presented. */
export function findConnectionsOfTeams(client: Client, teamIds: string[]) {
  return client.mcpConnection.findMany({
    where: { team_id: { in: teamIds } },
    include: connectionInclude,
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    take: 200,
  });
}

export function teamConnectionExists(client: Client, teamId: string, id: string) {
  return client.mcpConnection.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

export function insertConnection(tx: TxClient, data: Prisma.McpConnectionUncheckedCreateInput) {
  return tx.mcpConnection.create({ data });
}

export function findConnectionWithUser(client: Client, id: string) {
  return client.mcpConnection.findUnique({ where: { id }, include: { user: true } });
}

export function updateConnectionTier(client: Client, teamId: string, id: string, tier: number) {
  return client.mcpConnection.updateMany({ where: { id, team_id: teamId }, data: { rate_tier: tier } });
}

/** Records use unless recorded since `since` (a lazy PrismaPromise: it runs when awaited or caught). */
export function touchConnectionUsed(client: Client, id: string, since: Date, now: Date) {
  return client.mcpConnection.updateMany({
    where: { id, OR: [{ last_used_at: null }, { last_used_at: { lt: since } }] },
    data: { last_used_at: now },
  });
}

/** Revokes the connection, if ACTIVE, and every unrevoked token of it. */
export async function revokeConnectionAndTokens(client: Client, connectionId: string, now: Date) {
  await client.mcpConnection.updateMany({ where: { id: connectionId, state: 'ACTIVE' }, data: { state: 'REVOKED', revoked_at: now } });
  await client.oAuthToken.updateMany({ where: { connection_id: connectionId, revoked_at: null }, data: { revoked_at: now } });
}

// Tokens.

export function insertTokens(client: Client, data: Prisma.OAuthTokenCreateManyInput[]) {
  return client.oAuthToken.createMany({ data });
}

/** Tokens that expired before `before` (a lazy PrismaPromise: it runs when awaited or caught). */
export function deleteTokensExpiredBefore(client: Client, before: Date) {
  return client.oAuthToken.deleteMany({ where: { expires_at: { lt: before } } });
}

/** The token with its connection and the connection's person. */
export function findTokenWithUser(client: Client, tokenHash: string) {
  return client.oAuthToken.findUnique({ where: { token_hash: tokenHash }, include: { connection: { include: { user: true } } } });
}

export function findTokenWithConnection(client: Client, tokenHash: string) {
  return client.oAuthToken.findUnique({ where: { token_hash: tokenHash }, include: { connection: true } });
}

/** The token with its connection's team and person (with memberships): what a principal is made of. */
export function findTokenForPrincipal(client: Client, tokenHash: string) {
  return client.oAuthToken.findUnique({
    where: { token_hash: tokenHash },
    include: {
      connection: {
        include: {
          team: true,
          user: { include: membershipsInclude },
        },
      },
    },
  });
}

/** Marks the token used if unused, unrevoked and unexpired at `now` (compare-and-set); the count taken. */
export function useToken(tx: TxClient, id: string, now: Date) {
  return tx.oAuthToken.updateMany({
    where: { id, used_at: null, revoked_at: null, expires_at: { gt: now } },
    data: { used_at: now },
  });
}
