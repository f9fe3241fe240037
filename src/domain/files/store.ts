import { dialectOf } from '../../db/dialect.js';
import type { Db, Prisma, TxClient } from '../../db/types.js';
import { cappedIds, FTS_CAP, ftsPhrase } from '../fts.js';

// The files area's data access (issues 24 and 38): the file list's statements and provider
// differences, and the file records' reads and writes through Prisma (the processing sweep's
// claims are compare-and-sets on processing_started_at). The rules stay in files.ts, list.ts,
// process.ts and upload.ts.

type Client = Db['prisma'] | TxClient;

const SEARCH = 'SELECT s.file_id AS id FROM file_search f JOIN file_search_ids s ON s.id = f.rowid WHERE file_search MATCH ? LIMIT ?';

/** Ids of the files whose search_text contains `term` (SQLite's trigram index; src/domain/fts.ts), or undefined: use LIKE. */
export async function fileSearchIds(db: Db, term: string) {
  const phrase = ftsPhrase(db, 'search_text', term);
  return phrase ? cappedIds(await db.prisma.$queryRawUnsafe<{ id: string }[]>(SEARCH, phrase, FTS_CAP + 1)) : undefined;
}

/**
 * Under a mimetype list or family, or a min_size, a planner walks the sort index and tests each
 * file: to the end of the index when few files match or they sit at its far end. SQLite cannot
 * tell (it plans from average row counts: a rare family or a high min_size took 35-65 ms at
 * 100,000 files); PostgreSQL knows how many match (its histograms serve min_size and families) but
 * not where, which hurts a list of exact types (two rare types whose files are all named alike,
 * sorted by name: 120 ms). So the filters' own indexes give up to FEW + 1 matching ids first; when
 * that is all of them, the list sorts just those; with more, matches are common enough for the
 * walk. FEW is where reading and sorting the matches costs about what a walk does: 500 on SQLite
 * (1,000 matches took ~9 ms to sort, a walk for 1 in 200 files reads ~4,000 index rows in ~1 ms),
 * 2,000 on PostgreSQL, whose walks are what goes wrong. A family is the range ['type/', 'type0') of
 * the (team_id, mimetype, …) indexes ('0' follows '/'; SQLite compares text by bytes and types are
 * stored lower-case), which LIKE could not use; it is asked on SQLite only (see shouldProbe). Raw SQL
 * because Prisma adds ORDER BY id to a findMany with take, and sorting by id must not happen here.
 */
const FEW = { sqlite: 500, postgresql: 2000 } as const;

/** Whether the list asks fewMatches first: the filters a planner misjudges on this database (see FEW). */
export function shouldProbe(db: Db, types: string[] | undefined, minSize: number | undefined): boolean {
  const exactOnly = types?.every((m) => !m.endsWith('/*'));
  if (db.provider === 'sqlite') return minSize !== undefined || Boolean(types && !(exactOnly && types.length === 1));
  return Boolean(exactOnly && types!.length > 1);
}

/** Up to FEW ids of the team's files matching the mimetype and min_size filters, or undefined when more match. */
export async function fewMatches(
  db: Db,
  teamId: string,
  types: string[] | undefined,
  minSize: number | undefined,
): Promise<string[] | undefined> {
  const d = dialectOf(db.provider);
  const args: unknown[] = [];
  const p = (v: unknown) => {
    args.push(v);
    return '?';
  };
  const where = [`"team_id" = ${p(teamId)}`];
  if (types) {
    const exact = types.filter((m) => !m.endsWith('/*')).map((m) => m.toLowerCase());
    const or = exact.length ? [`"mimetype" IN (${exact.map(p).join(', ')})`] : [];
    for (const m of types.filter((t) => t.endsWith('/*'))) {
      const prefix = m.slice(0, -1).toLowerCase();
      or.push(`("mimetype" >= ${p(prefix)} AND "mimetype" < ${p(`${prefix.slice(0, -1)}0`)})`);
    }
    where.push(`(${or.join(' OR ')})`);
  }
  if (minSize !== undefined) where.push(`"size" >= ${p(minSize)}`);
  const few = FEW[d.provider];
  const sql = `SELECT "id" FROM "files" WHERE ${where.join(' AND ')} LIMIT ${p(few + 1)}`;
  const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(d.text(sql), ...args);
  return rows.length > few ? undefined : rows.map((r) => r.id);
}

// File records.

export function insertFile(client: Client, data: Prisma.FileUncheckedCreateInput) {
  return client.file.create({ data });
}

export function findTeamFile(client: Client, teamId: string, id: string) {
  return client.file.findFirst({ where: { id, team_id: teamId } });
}

export function findTeamFileKey(client: Client, teamId: string, id: string) {
  return client.file.findFirst({ where: { id, team_id: teamId }, select: { storage_key: true } });
}

/** Updates the team's file (the team check and the change in one write); the count changed. */
export function updateTeamFile(client: Client, teamId: string, id: string, data: Prisma.FileUpdateManyMutationInput) {
  return client.file.updateMany({ where: { id, team_id: teamId }, data });
}

export function deleteTeamFile(client: Client, teamId: string, id: string) {
  return client.file.deleteMany({ where: { id, team_id: teamId } });
}

/** One page of files (pageArgs' window). */
export function findFilePage(client: Client, window: { where: Prisma.FileWhereInput; orderBy: never; skip: number; take: number }) {
  return client.file.findMany(window);
}

export function fileExists(client: Client, id: string) {
  return client.file.findUnique({ where: { id }, select: { id: true } });
}

// The processing sweep.

/** Up to `take` stored files still PENDING, unclaimed or claimed before `stale`, oldest first. */
export function findPendingFiles(client: Client, stale: Date, take: number) {
  return client.file.findMany({
    where: {
      processing_status: 'PENDING',
      storage_key: { not: null },
      OR: [{ processing_started_at: null }, { processing_started_at: { lt: stale } }],
    },
    orderBy: { created_at: 'asc' },
    take,
    select: { id: true, processing_started_at: true, storage_key: true, url: true, team_id: true },
  });
}

/** Claims the file for processing if still PENDING with the claim `seen` (compare-and-set); the count. */
export function claimPendingFile(client: Client, id: string, seen: Date | null, now: Date) {
  return client.file.updateMany({
    where: { id, processing_status: 'PENDING', processing_started_at: seen },
    data: { processing_started_at: now },
  });
}

/** Records the processing's outcome if the file is still PENDING; the count. */
export function finishPendingFile(client: Client, id: string, outcome: Prisma.FileUpdateManyMutationInput) {
  return client.file.updateMany({ where: { id, processing_status: 'PENDING' }, data: outcome });
}
