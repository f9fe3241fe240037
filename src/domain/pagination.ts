import { invalid } from './errors.js';

// 0-based pages (design §2). One extra row is fetched to learn has_next_page without a COUNT.

export interface PageRequest {
  page: number;
  limit: number;
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
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

/** Prisma findMany arguments for a page (take is limit + 1; pass the rows to toPage). */
export const pageWindow = ({ page, limit }: PageRequest) => ({ skip: page * limit, take: limit + 1 });

export function toPage<T>(rows: T[], { page, limit }: PageRequest, total?: number): Page<T> {
  const data = rows.slice(0, limit);
  const first = page * limit + 1;
  const meta: PageMeta = {
    page,
    page_size: limit,
    start_index: data.length ? first : 0,
    end_index: data.length ? first + data.length - 1 : 0,
    has_next_page: rows.length > limit,
    has_previous_page: page > 0,
  };
  if (total !== undefined) meta.total = total;
  return { data, meta };
}

/** Splits "A,B , C" into ['A','B','C']; empty or missing gives undefined (no filter). */
export function csvList(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  return items.length ? items : undefined;
}

/** A comma list whose items must all be among `allowed` (an enum filter); 400 naming the unknown ones. */
export function enumList<const T extends string>(path: string, value: string | undefined, allowed: readonly T[]): T[] | undefined {
  const items = csvList(value);
  const bad = items?.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad?.length) throw invalid(path, `must be a comma-separated list of ${allowed.join(', ')} (unknown: ${bad.join(', ')})`);
  return items as T[] | undefined;
}
