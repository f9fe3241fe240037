import type { Db, Prisma } from '../../db/types.js';
import { csvList, pageArgs, toPage, type PageRequest } from '../pagination.js';
import { searchKey } from '../search.js';
import { fewMatches, fileSearchIds, findFilePage, shouldProbe } from './store.js';

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

export async function listFiles(db: Db, teamId: string, q: FileListQuery) {
  const and: Prisma.FileWhereInput[] = [{ team_id: teamId }];
  const types = csvList(q.mimetype);
  if (types) and.push(mimetypeWhere(types));
  const minSize = q.min_size === undefined || q.min_size === null ? undefined : Math.ceil(q.min_size);
  if (minSize !== undefined) and.push({ size: { gte: BigInt(minSize) } });
  const search = q.search?.trim();
  const term = search ? searchKey(search) : undefined;
  const found = term ? await fileSearchIds(db, term) : undefined;
  if (found) and.push({ id: { in: found } });
  else if (term) and.push({ search_text: { contains: term } });
  // One exact type is served in order by (team_id, mimetype, <sort>, id); see store.ts for the rest.
  if (!found && shouldProbe(db, types, minSize)) {
    const few = await fewMatches(db, teamId, types, minSize);
    if (few) and.push({ id: { in: few } });
  }
  const dir = q.order ?? 'desc';
  const orderBy: Prisma.FileOrderByWithRelationInput[] = [{ [q.order_by ?? 'created_at']: dir }, { id: dir }];
  const rows = await findFilePage(db.prisma, pageArgs(q, { AND: and }, orderBy));
  return toPage(rows, q, undefined, orderBy);
}
