import type { Db, TxClient } from '../db/types.js';

/** db.prisma or a transaction client. */
type Client = Db['prisma'] | TxClient;

/** id -> name for the given team ids (nulls and repeats ignored), in one query; none when empty. */
export async function teamNames(client: Client, ids: Iterable<string | null | undefined>): Promise<Map<string, string>> {
  const unique = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
  if (!unique.length) return new Map();
  const teams = await client.team.findMany({ where: { id: { in: unique } }, select: { id: true, name: true } });
  return new Map(teams.map((t) => [t.id, t.name]));
}
