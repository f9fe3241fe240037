import type { ListResponse, PageMeta, Query } from './types.js';

export interface PaginateOptions {
  /** `limit` sent with every page; defaults to the caller's query.limit, else 100. */
  pageSize?: number;
  /** Called after each page arrives (progress reporting). */
  onPage?: (info: { page: number; rows: number; fetched: number; meta: PageMeta }) => void;
}

/** Whether another page follows: `meta.has_next_page`, else `(page+1) * page_size < total`. */
export function hasNextPage(meta: PageMeta | undefined, page: number, rows: number): boolean {
  if (rows === 0 || !meta) return false;
  if (typeof meta.has_next_page === 'boolean') return meta.has_next_page;
  if (typeof meta.total === 'number') {
    const size = meta.page_size ?? rows;
    return (page + 1) * size < meta.total;
  }
  return false;
}

/**
 * Walks a list yielding records one by one, so `--all` can stream without holding the whole
 * list: by `meta.next_cursor` when the server gives one (keyset: every page costs the same,
 * however deep), else `page = start, start+1, …` (0-based, design.md §2).
 */
export async function* paginate<T>(
  fetchPage: (query: Query) => Promise<ListResponse<T>>,
  query: Query = {},
  opts: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const limit = opts.pageSize ?? (typeof query.limit === 'number' ? query.limit : 100);
  let page = typeof query.page === 'number' ? query.page : 0;
  let fetched = 0;
  let cursor: string | undefined;
  for (;;) {
    const body = await fetchPage(cursor ? { ...query, page: undefined, cursor, limit } : { ...query, page, limit });
    if (!body || !Array.isArray(body.data)) {
      throw new Error('expected a list response { data: [...], meta }');
    }
    fetched += body.data.length;
    opts.onPage?.({ page, rows: body.data.length, fetched, meta: body.meta ?? {} });
    for (const row of body.data) yield row;
    if (!hasNextPage(body.meta, page, body.data.length)) return;
    const next = body.meta?.next_cursor;
    if (typeof next === 'string' && next) cursor = next;
    else if (cursor) throw new Error('the server stopped giving next_cursor mid-list');
    page += 1;
  }
}
