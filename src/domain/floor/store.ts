import type { Db, Prisma, TxClient } from '../../db/types.js';

// The floor page's data access (issue 38 item 4), through Prisma: which teams a person may work
// for, and the connection a sign-in makes (its tokens are the oauth area's).

/** Which of these teams are FULFILLER teams (their ids). */
export function findFulfillerTeamIds(client: Db['prisma'], ids: string[]) {
  return client.team.findMany({ where: { id: { in: ids }, kind: 'FULFILLER' }, select: { id: true } });
}

export function insertConnection(tx: TxClient, data: Prisma.McpConnectionUncheckedCreateInput) {
  return tx.mcpConnection.create({ data });
}
