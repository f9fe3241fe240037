import type { TxClient } from '../../db/types.js';
import { deleteOrderTags, insertOrderTags } from './store/tags.js';

// order_tags: one row per tag of an order, the index behind the order list's ?tag= filter
// (orders.tags is JSON, which no index serves). Every write of orders.tags calls setOrderTags in
// the same transaction (place.ts on creation, edit.ts on PATCH), so the two never disagree.

/** Replace the order's tag rows with `tags` (deduplicated). */
export async function setOrderTags(tx: TxClient, order: { id: string; fulfiller_team_id: string }, tags: readonly string[]): Promise<void> {
  await deleteOrderTags(tx, order.id);
  const unique = [...new Set(tags)];
  if (unique.length) {
    await insertOrderTags(
      tx,
      unique.map((tag) => ({ order_id: order.id, tag, fulfiller_team_id: order.fulfiller_team_id })),
    );
  }
}
