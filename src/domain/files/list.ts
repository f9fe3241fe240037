import type { Db, Prisma } from '../../db/types.js';
import { FTS_CAP, ftsIds } from '../fts.js';
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
 * 100,000 files); PostgreSQL knows how many match but not where (two rare types whose files are
 * all named alike, sorted by name: 120 ms). So the filters' own indexes give up to FTS_CAP + 1
 * matching ids first; when that is all of them, the list sorts just those. On SQLite a family is
 * the range ['type/', 'type0') of the (team_id, mimetype, …) indexes ('0' follows '/'; text
 * compares by bytes and types are stored lower-case), which LIKE could not use; PostgreSQL's
 * collation need not order that range by bytes, so there it stays LIKE. Raw SQL because Prisma
 * adds ORDER BY id to a findMany with take, and sorting by id is what must not happen here.
 */
async function fewMatches(db: Db, teamId: string, types: string[] | undefined, minSize: number | undefined): Promise<string[] | undefined> {
  const args: unknown[] = [];
  const p = (v: unknown) => { args.push(v); return db.provider === 'sqlite' ? '?' : `$${args.length}`; };
  const where = [`"team_id" = ${p(teamId)}`];
  if (types) {
    const exact = types.filter((m) => !m.endsWith('/*')).map((m) => m.toLowerCase());
    const or = exact.length ? [`"mimetype" IN (${exact.map(p).join(', ')})`] : [];
    for (const m of types.filter((t) => t.endsWith('/*'))) {
      const prefix = m.slice(0, -1).toLowerCase();
      or.push(db.provider === 'sqlite' ? `("mimetype" >= ${p(prefix)} AND "mimetype" < ${p(`${prefix.slice(0, -1)}0`)})`
        : `"mimetype" LIKE ${p(`${prefix.replace(/[\\%_]/g, '\\$&')}%`)}`);
    }
    where.push(`(${or.join(' OR ')})`);
  }
  if (minSize !== undefined) where.push(`"size" >= ${p(minSize)}`);
  const sql = `SELECT "id" FROM "files" WHERE ${where.join(' AND ')} LIMIT ${p(FTS_CAP + 1)}`;
  const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(sql, ...args);
  return rows.length > FTS_CAP ? undefined : rows.map((r) => r.id);
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
  const oneType = types?.length === 1 && !types[0].endsWith('/*'); // served in order by (team_id, mimetype, <sort>, id)
  if (!found && (minSize !== undefined || (types && !oneType))) {
    const few = await fewMatches(db, teamId, types, minSize);
    if (few) and.push({ id: { in: few } });
  }
  const dir = q.order ?? 'desc';
  const orderBy: Prisma.FileOrderByWithRelationInput[] = [{ [q.order_by ?? 'created_at']: dir }, { id: dir }];
  const rows = await db.prisma.file.findMany(pageArgs(q, { AND: and }, orderBy));
  return toPage(rows, q, undefined, orderBy);
}
