import { invalid } from './errors.js';
import { afterCursor, cursorAfter } from './keyset.js';

// 0-based pages (design §2). One extra row is fetched to learn has_next_page without a COUNT.

export interface PageRequest {
  page: number;
  limit: number;
  /** Opaque keyset cursor (meta.next_cursor of the previous page); when given, page is not used. */
  cursor?: string;
  /** Only ids starting with this (lists whose schema spreads idPrefixQuery). */
  id_prefix?: string;
}

export interface PageMeta {
  page: number;
  page_size: number;
  /** 1-based position of the first record on this page; 0 when the page is empty. */
  start_index: number;
  /** 1-based position of the last record on this page; 0 when the page is empty. */
  end_index: number;
  has_next_page: boolean;
  has_previous_page: boolean;
  total?: number;
  /** Cursor of the next page (keyset paging), null on the last page. */
  next_cursor?: string | null;
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

/**
 * Prisma findMany arguments for a page: `where` narrowed to the rows after the cursor when one is
 * given (keyset), else OFFSET paging; take is limit + 1 (pass the rows and orderBy to toPage).
 */
export function pageArgs<W extends object>(
  q: PageRequest,
  where: W,
  orderBy: unknown,
): { where: W; orderBy: never; skip: number; take: number } {
  if (q.id_prefix) where = { AND: [where, idPrefixWhere(q.id_prefix)] } as unknown as W;
  if (q.cursor)
    return {
      where: { AND: [where, afterCursor(q.cursor, orderBy, { bound: true })] } as unknown as W,
      orderBy: orderBy as never,
      skip: 0,
      take: q.limit + 1,
    };
  return { where, orderBy: orderBy as never, ...pageWindow(q) };
}

/**
 * Ids starting with `prefix`: a range on the primary key (its index serves it; ids are lowercase
 * hex and dashes, all below 'g') plus startsWith, which keeps it exact under any collation.
 */
export function idPrefixWhere(prefix: string) {
  const p = prefix.toLowerCase();
  return { id: { gte: p, lt: `${p}g`, startsWith: p } };
}

/** OFFSET window only (lists that build their own where/orderBy; prefer pageArgs). */
export const pageWindow = ({ page, limit, cursor }: PageRequest) => ({ skip: cursor ? 0 : page * limit, take: limit + 1 });

export function toPage<T>(rows: T[], q: PageRequest, total?: number, orderBy?: unknown): Page<T> {
  const { limit } = q;
  const page = q.cursor ? 0 : q.page;
  const data = rows.slice(0, limit);
  const first = page * limit + 1;
  const meta: PageMeta = {
    page,
    page_size: limit,
    start_index: data.length ? first : 0,
    end_index: data.length ? first + data.length - 1 : 0,
    has_next_page: rows.length > limit,
    has_previous_page: page > 0 || Boolean(q.cursor),
  };
  if (total !== undefined) meta.total = total;
  if (orderBy !== undefined) {
    const last = data[data.length - 1] as Record<string, unknown> | undefined;
    meta.next_cursor = rows.length > limit && last ? (cursorAfter(last, orderBy) ?? null) : null;
  }
  return { data, meta };
}

/** Splits "A,B , C" into ['A','B','C']; empty or missing gives undefined (no filter). */
export function csvList(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}

/** A comma list whose items must all be among `allowed` (an enum filter); 400 naming the unknown ones. */
export function enumList<const T extends string>(path: string, value: string | undefined, allowed: readonly T[]): T[] | undefined {
  const items = csvList(value);
  const bad = items?.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad?.length) throw invalid(path, `must be a comma-separated list of ${allowed.join(', ')} (unknown: ${bad.join(', ')})`);
  return items as T[] | undefined;
}
