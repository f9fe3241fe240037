import type { Db, Prisma } from '../../db/types.js';
import { searchKey } from '../search.js';
import { orderSearchBranches } from './store/common.js';

// The `search` of the order list: an order-number prefix, or a substring of the customer's name or
// email (search_text). Each side is an index lookup on both databases (store.ts says how).

export async function orderSearch(db: Db, search: string): Promise<Prisma.OrderWhereInput[]> {
  // Columns and term share one encoding (src/domain/search.ts): literal on both databases.
  return orderSearchBranches(db, searchKey(search), searchKey(search.replace(/^#/, '')));
}
