import type { Db, Prisma } from '../../db/types.js';
import { ftsIds } from '../fts.js';
import { csvList, pageArgs, toPage, type PageRequest } from '../pagination.js';
import { searchKey } from '../search.js';

// GET /v1/ops/files (spec 4.10): search, mimetype, min_size and four sorts, by page or keyset
// cursor. Each sort is an index (team_id, <sort>, id), and under one exact mimetype (team_id,
// mimetype, <sort>, id); search is an FTS5 trigram lookup on SQLite and a pg_trgm GIN index on
// PostgreSQL (migration record_list_indexes; docs/performance.md).

export interface FileListQuery extends PageRequest {
  search?: string;
  mimetype?: string;
  min_size?: number | null;
  order_by?: 'created_at' | 'updated_at' | 'name' | 'size';
  order?: 'asc' | 'desc';
}

/** mimetype filter: exact types, or "type/*" for a whole family. */
function mimetypeWhere(list: string[]): Prisma.FileWhereInput {
  const exact = list.filter((m) => !m.endsWith('/*')).map((m) => m.toLowerCase());
  const families = list.filter((m) => m.endsWith('/*')).map((m) => m.slice(0, -1).toLowerCase());
  const or: Prisma.FileWhereInput[] = [];
  if (exact.length) or.push({ mimetype: { in: exact } });
  for (const prefix of families) or.push({ mimetype: { startsWith: prefix } });
  return { OR: or };
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
 * stored lower-case), which LIKE could not use; it is asked on SQLite only (see listFiles). Raw SQL
 * because Prisma adds ORDER BY id to a findMany with take, and sorting by id must not happen here.
 */
const FEW = { sqlite: 500, postgresql: 2000 } as const;

async function fewMatches(db: Db, teamId: string, types: string[] | undefined, minSize: number | undefined): Promise<string[] | undefined> {
  const args: unknown[] = [];
  const p = (v: unknown) => {
    args.push(v);
    return db.provider === 'sqlite' ? '?' : `$${args.length}`;
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
  const sql = `SELECT "id" FROM "files" WHERE ${where.join(' AND ')} LIMIT ${p(FEW[db.provider] + 1)}`;
  const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(sql, ...args);
  return rows.length > FEW[db.provider] ? undefined : rows.map((r) => r.id);
}

export async function listFiles(db: Db, teamId: string, q: FileListQuery) {
  const and: Prisma.FileWhereInput[] = [{ team_id: teamId }];
  const types = csvList(q.mimetype);
  if (types) and.push(mimetypeWhere(types));
  const minSize = q.min_size === undefined || q.min_size === null ? undefined : Math.ceil(q.min_size);
  if (minSize !== undefined) and.push({ size: { gte: BigInt(minSize) } });
  const search = q.search?.trim();
  const term = search ? searchKey(search) : undefined;
  const found = term ? await ftsIds(db, 'files.search_text', term) : undefined;
  if (found) and.push({ id: { in: found } });
  else if (term) and.push({ search_text: { contains: term } });
  // One exact type is served in order by (team_id, mimetype, <sort>, id); see fewMatches for the rest.
  const exactOnly = types?.every((m) => !m.endsWith('/*'));
  const probe =
    db.provider === 'sqlite' ? minSize !== undefined || (types && !(exactOnly && types.length === 1)) : exactOnly && types!.length > 1;
  if (!found && probe) {
    const few = await fewMatches(db, teamId, types, minSize);
    if (few) and.push({ id: { in: few } });
  }
  const dir = q.order ?? 'desc';
  const orderBy: Prisma.FileOrderByWithRelationInput[] = [{ [q.order_by ?? 'created_at']: dir }, { id: dir }];
  const rows = await db.prisma.file.findMany(pageArgs(q, { AND: and }, orderBy));
  return toPage(rows, q, undefined, orderBy);
}
