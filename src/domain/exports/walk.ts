import { cursorAfter } from '../keyset.js';
import { invalid } from '../errors.js';

// Streaming exports (issue 29 item 4): every record of a list, in the list's own order, walked
// page by page with its keyset cursor, so memory stays flat however many records there are and
// no page costs more than the first. Each page is its own query (no transaction held open for
// minutes): a record written during an export appears in it when it sorts after the walk's
// position, as with --all over the list.

/** Records per query of the walk: large enough that a query's overhead is small, small enough to keep memory flat. */
export const EXPORT_CHUNK = 1000;

/** How many records one rate-limited request buys (README, docs/api.md "Exports"). */
export const RECORDS_PER_REQUEST = 10_000;

export interface ExportPage<T> {
  data: T[];
  meta: { next_cursor?: string | null };
}

/** Every list exported sorts by (created_at, id), newest first: its cursor after a record is built from those two. */
export const EXPORT_ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

/**
 * The list cursor after the record `id` (resuming an export from the last record it sent).
 * `createdAt` is that record's creation time, or undefined when no such record exists.
 */
export function cursorAfterRecord(id: string, createdAt: Date | undefined): string {
  if (!createdAt) throw invalid('query.after', 'is not the id of a record of this list');
  return cursorAfter({ created_at: createdAt, id }, EXPORT_ORDER)!;
}

/** Pages of records from `cursor` on (undefined: from the start), until the list ends. */
export async function* walkPages<T>(
  fetchPage: (cursor: string | undefined, limit: number) => Promise<ExportPage<T>>,
  cursor?: string,
): AsyncGenerator<T[]> {
  let next: string | undefined = cursor;
  for (;;) {
    const page = await fetchPage(next, EXPORT_CHUNK);
    if (page.data.length) yield page.data;
    if (!page.meta.next_cursor) return;
    next = page.meta.next_cursor;
  }
}
