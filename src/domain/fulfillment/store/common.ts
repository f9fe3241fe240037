import { placeholders } from '../../../db/dialect.js';

export { caseBy } from '../../../db/dialect.js';
export { insertRows } from '../../../db/insert-rows.js';

// Fragments the fulfillment area's statements share (SQL text with `?` placeholders; the
// parameters each needs are listed beside it).

/** The fulfillment orders a lock, pack or fulfill may work on (ACCEPTED, IN_PROGRESS). */
export const LOCKABLE_STATUSES = ['ACCEPTED', 'IN_PROGRESS'];
/** Fulfillment orders no package is added to or changed on. */
export const CLOSED_STATUSES = ['FULFILLED', 'CANCELLED'];

/** No active hold on the fulfillment order's order; one parameter: true. */
export const NO_ACTIVE_HOLD = `NOT EXISTS (SELECT 1 FROM "order_fulfillment_holds" h WHERE h."order_id" = "fulfillment_orders"."order_id" AND h."active" = ?)`;

/** `"status" IN (…)` of a fixed list; its parameters are the list. */
export const statusIn = (list: readonly string[]) => `"status" IN (${placeholders(list.length)})`;

/** Sorts rows by created_at, then id (the order a read shows lines in). */
export const byCreated = <T extends { created_at: Date; id: string }>(a: T, b: T) =>
  a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
