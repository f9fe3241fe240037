import type { TxClient } from '../../db/types.js';
import { applyToLevel } from '../inventory/index.js';
import { findLevel, findLevelsOf, findTeamWarehouses, sumWaitingFromRank } from './store/allocation.js';

// Inventory allocation: which warehouse ships how many units of each order line.
//
// available = on_hand - committed - unavailable, per product and warehouse. A plan prefers
// the warehouse that can ship the most of what is still needed (fewest splits), then the
// next, until the need is met or stock runs out. Committing is a conditional UPDATE per
// inventory level (committed + n <= on_hand - unavailable in its WHERE), so concurrent
// allocations never overcommit on SQLite or PostgreSQL; levels are updated in id order so
// two transactions never wait on each other in a cycle.

export interface StockLevel {
  id: string;
  product_id: string;
  warehouse_id: string;
  available: number;
}

export interface Chunk {
  levelId: string;
  product_id: string;
  warehouse_id: string;
  quantity: number;
}

export interface LineNeed {
  key: string; // caller's handle for the line
  product_id: string;
  quantity: number;
}

export interface LineAllocation {
  key: string;
  warehouse_id: string;
  quantity: number;
}

/** The fulfiller team's warehouses in a stable preference order (oldest first). */
export async function teamWarehouses(tx: TxClient, fulfillerTeamId: string) {
  return findTeamWarehouses(tx, fulfillerTeamId);
}

/** Stock of the given products in the team's warehouses, in warehouse preference order. */
export async function loadStock(tx: TxClient, fulfillerTeamId: string, productIds: string[]): Promise<StockLevel[]> {
  if (!productIds.length) return [];
  const warehouses = await teamWarehouses(tx, fulfillerTeamId);
  const order = new Map(warehouses.map((w, i) => [w.id, i]));
  const levels = await findLevelsOf(tx, productIds, [...order.keys()]);
  return levels
    .map((l) => ({ id: l.id, product_id: l.product_id, warehouse_id: l.warehouse_id, available: l.on_hand - l.committed - l.unavailable }))
    .sort((a, b) => order.get(a.warehouse_id)! - order.get(b.warehouse_id)!);
}

/** Greedy fewest-splits plan (pure). `stock` order breaks ties between equally good warehouses. */
export function planAllocation(needs: Map<string, number>, stock: StockLevel[]): Chunk[] {
  const remaining = new Map([...needs].filter(([, n]) => n > 0));
  const avail = new Map(stock.filter((s) => s.available > 0).map((s) => [s.id, s.available]));
  const warehouses = [...new Set(stock.map((s) => s.warehouse_id))];
  const chunks: Chunk[] = [];
  for (;;) {
    let best: string | null = null;
    let bestScore = 0;
    for (const w of warehouses) {
      let score = 0;
      for (const s of stock) {
        if (s.warehouse_id === w) score += Math.min(remaining.get(s.product_id) ?? 0, avail.get(s.id) ?? 0);
      }
      if (score > bestScore) [best, bestScore] = [w, score];
    }
    if (!best) return chunks;
    for (const s of stock) {
      if (s.warehouse_id !== best) continue;
      const take = Math.min(remaining.get(s.product_id) ?? 0, avail.get(s.id) ?? 0);
      if (take <= 0) continue;
      chunks.push({ levelId: s.id, product_id: s.product_id, warehouse_id: s.warehouse_id, quantity: take });
      remaining.set(s.product_id, remaining.get(s.product_id)! - take);
      avail.set(s.id, avail.get(s.id)! - take);
    }
  }
}

/**
 * Increments committed by up to `want` units, never past on_hand - unavailable; returns how
 * many were committed (fewer when a concurrent transaction took some first).
 */
export async function commitUpTo(tx: TxClient, chunk: Chunk, want: number, ref: string | null = null): Promise<number> {
  let n = want;
  const level = { id: chunk.levelId, product_id: chunk.product_id, warehouse_id: chunk.warehouse_id };
  // `ref`: an order id, or during conversion the draft's id (convert renames it to the order's).
  const info = {
    kind: 'COMMITTED' as const,
    reference_type: ref ? (ref.startsWith('draft:') ? 'draft_order' : 'order') : null,
    reference_id: ref?.replace(/^draft:/, '') ?? null,
  };
  for (let attempt = 0; n > 0 && attempt < 5; attempt++) {
    // Through the ledger: the COMMITTED movement is written with the change.
    if (await applyToLevel(tx, level, { committed: n }, info, { sellable: true })) return n;
    const now = await findLevel(tx, chunk.levelId);
    n = Math.min(n, now ? now.on_hand - now.committed - now.unavailable : 0);
  }
  return 0;
}

/** Commits a plan (levels in id order); returns the chunks as actually committed. */
export async function commitPlan(tx: TxClient, plan: Chunk[], orderId: string | null = null): Promise<Chunk[]> {
  const done: Chunk[] = [];
  for (const chunk of [...plan].sort((a, b) => (a.levelId < b.levelId ? -1 : a.levelId > b.levelId ? 1 : 0))) {
    const quantity = await commitUpTo(tx, chunk, chunk.quantity, orderId);
    if (quantity > 0) done.push({ ...chunk, quantity });
  }
  return done;
}

/** Hands committed chunks to the lines that need them, in line order (pure). */
export function distribute(lines: LineNeed[], chunks: Chunk[]): LineAllocation[] {
  const pools = new Map<string, { warehouse_id: string; left: number }[]>();
  for (const c of chunks) {
    const pool = pools.get(c.product_id) ?? [];
    const same = pool.find((p) => p.warehouse_id === c.warehouse_id);
    if (same) same.left += c.quantity;
    else pool.push({ warehouse_id: c.warehouse_id, left: c.quantity });
    pools.set(c.product_id, pool);
  }
  const out: LineAllocation[] = [];
  for (const line of lines) {
    let need = line.quantity;
    for (const p of pools.get(line.product_id) ?? []) {
      if (need <= 0) break;
      const take = Math.min(need, p.left);
      if (take <= 0) continue;
      out.push({ key: line.key, warehouse_id: p.warehouse_id, quantity: take });
      p.left -= take;
      need -= take;
    }
  }
  return out;
}

/**
 * Units of each product that waiting orders at or above `priorityRank` still need: a newly
 * converted order (the youngest) only takes stock left after them, so priority holds even
 * when stock arrives between conversions.
 */
export async function queueReservations(tx: TxClient, fulfillerTeamId: string, productIds: string[], priorityRank: number) {
  if (!productIds.length) return new Map<string, number>();
  const rows = await sumWaitingFromRank(tx, fulfillerTeamId, productIds, priorityRank);
  return new Map(rows.map((r) => [r.product_id!, r._sum.unallocated_quantity ?? 0]));
}

/** Removes reserved units from the stock snapshot (first warehouses first). */
export function withoutReserved(stock: StockLevel[], reserved: Map<string, number>): StockLevel[] {
  const left = new Map(reserved);
  return stock.map((s) => {
    const r = Math.min(left.get(s.product_id) ?? 0, Math.max(0, s.available));
    if (r > 0) left.set(s.product_id, left.get(s.product_id)! - r);
    return { ...s, available: s.available - r };
  });
}

/** An automation rule's warehouse routing of an order (Order.routed_warehouse_id / _only). */
export interface Route {
  warehouse_id: string;
  /** true: nothing from other warehouses; false: the routed one first, then the usual plan */
  only: boolean;
}

export const routeOf = (o: { routed_warehouse_id: string | null; routed_warehouse_only: boolean }): Route | null =>
  o.routed_warehouse_id ? { warehouse_id: o.routed_warehouse_id, only: o.routed_warehouse_only } : null;

/**
 * The plan under a routing (pure): the routed warehouse's stock first; what it lacks from the
 * others by the usual plan, unless the route is `only`.
 */
export function planRouted(needs: Map<string, number>, stock: StockLevel[], route: Route | null): Chunk[] {
  if (!route) return planAllocation(needs, stock);
  const first = planAllocation(
    needs,
    stock.filter((s) => s.warehouse_id === route.warehouse_id),
  );
  if (route.only) return first;
  const left = new Map(needs);
  for (const c of first) left.set(c.product_id, left.get(c.product_id)! - c.quantity);
  return [
    ...first,
    ...planAllocation(
      left,
      stock.filter((s) => s.warehouse_id !== route.warehouse_id),
    ),
  ];
}

/** Plans and commits stock for the lines; returns per-line warehouse allocations. */
export async function allocateLines(
  tx: TxClient,
  fulfillerTeamId: string,
  lines: LineNeed[],
  reserved: Map<string, number> = new Map(),
  orderId: string | null = null,
  route: Route | null = null,
): Promise<LineAllocation[]> {
  const needs = new Map<string, number>();
  for (const l of lines) needs.set(l.product_id, (needs.get(l.product_id) ?? 0) + l.quantity);
  const stock = withoutReserved(await loadStock(tx, fulfillerTeamId, [...needs.keys()]), reserved);
  const committed = await commitPlan(tx, planRouted(needs, stock, route), orderId);
  // The routed warehouse's units go to the lines first (distribute takes a product's pools in order).
  const ordered = route
    ? [...committed].sort((a, b) => +(b.warehouse_id === route.warehouse_id) - +(a.warehouse_id === route.warehouse_id))
    : committed;
  return distribute(lines, ordered);
}
