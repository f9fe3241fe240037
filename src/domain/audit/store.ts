import { statementsOf } from '../../db/statements.js';
import type { Db, Prisma, TxClient } from '../../db/types.js';

// The audit area's data access (issue 38 item 4): the record's one prepared INSERT
// (src/db/statements.ts, no Prisma runtime: it is on every fulfillment's path, docs/audit.md
// "Cost"), and the reads and pruning of the records through Prisma.

/** The audit_events columns an INSERT writes, in the order auditRow (record.ts) gives their values. */
export const COLUMNS = [
  'id',
  'team_id',
  'created_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'user_id',
  'ip',
  'user_agent',
  'action',
  'method',
  'path',
  'target_type',
  'target_id',
  'target_key',
  'changes',
  'trace_id',
] as const;

const sqlCache = new Map<string, string>();
function insertSql(jsonParam: string): string {
  let sql = sqlCache.get(jsonParam);
  if (!sql) {
    const values = COLUMNS.map((c) => (c === 'changes' ? jsonParam : '?')).join(', ');
    sql = `INSERT INTO "audit_events" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${values})`;
    sqlCache.set(jsonParam, sql);
  }
  return sql;
}

/** Inserts one record (values in COLUMNS order); on PostgreSQL sent with the COMMIT (one round trip). */
export async function insertAuditRow(tx: TxClient, row: unknown[]): Promise<void> {
  const st = statementsOf(tx);
  if (st.runAtCommit) await st.runAtCommit(insertSql(st.dialect.jsonParam), row);
  else await st.run(insertSql(st.dialect.jsonParam), row);
}

/** One page of records (pageArgs' window). */
export function findAuditPage(
  client: Db['prisma'],
  window: { where: Prisma.AuditEventWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.auditEvent.findMany(window);
}

export function findTeamAuditEvent(client: Db['prisma'], teamId: string, id: string) {
  return client.auditEvent.findFirst({ where: { id, team_id: teamId } });
}

/** Deletes the records made before `before`; how many. */
export async function deleteAuditEventsBefore(client: Db['prisma'], before: Date): Promise<number> {
  const { count } = await client.auditEvent.deleteMany({ where: { created_at: { lt: before } } });
  return count;
}

/** Names the target of a record that committed without one (only while it still has none). */
export async function setAuditEventTarget(client: Db['prisma'], id: string, targetId: string, targetKey: string | null): Promise<void> {
  await client.auditEvent.updateMany({ where: { id, target_id: null }, data: { target_id: targetId, target_key: targetKey } });
}
