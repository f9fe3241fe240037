import type { Client } from './reach.js';
import * as records from './store/records.js';

// Inventory as products show it. Stock levels are per product and warehouse; a fulfiller sees
// the levels at its own warehouses (optionally narrowed by the warehouse_id filter).
//
// Each quantity is { count, operations }: operations are the terms the count is made of, and
// their counts always add up to count. Stored quantities are explained from the ledger (issue 10):
//   on_hand      [stock_level]
//   committed    [open_orders]                 (only orders commit stock)
//   unavailable  by the reason of its movements: damaged, quarantine (releases included), …
//   on_order     by what raised it: purchase_orders, transfers
// and any part the ledger does not explain (levels written before it existed) is "stock_level".
// available is derived:
//   available = on_hand - committed - unavailable
//   operations: [{on_hand}, {committed, negative}, {unavailable, negative}]

export interface Operation {
  count: number;
  label: string;
}
export interface Quantity {
  count: number;
  operations: Operation[];
}
export interface WarehouseInventory {
  warehouse_id: string;
  warehouse_name: string;
  on_order: Quantity;
  unavailable: Quantity;
  committed: Quantity;
  on_hand: Quantity;
  available: Quantity;
}
export interface InventoryTotals {
  available: number;
  on_hand: number;
  committed: number;
  unavailable: number;
  on_order: number;
}

interface Level {
  product_id: string;
  warehouse_id: string;
  on_hand: number;
  committed: number;
  unavailable: number;
  on_order: number;
}

const stored = (count: number): Quantity => ({ count, operations: [{ count, label: 'stock_level' }] });

/** Terms for `count` from the ledger's sums per label; the unexplained rest is "stock_level". */
function explained(count: number, parts: Map<string, number> | undefined): Quantity {
  const operations = [...(parts ?? [])].filter(([, n]) => n !== 0).map(([label, n]) => ({ count: n, label }));
  const rest = count - operations.reduce((s, o) => s + o.count, 0);
  if (rest !== 0 || !operations.length) operations.push({ count: rest, label: 'stock_level' });
  return { count, operations };
}

type Breakdown = Map<string, Map<string, number>>; // `${level key}:${bucket}` -> label -> units

const UNAVAILABLE_LABELS: Record<string, string> = { DAMAGED: 'damaged', QUARANTINE: 'quarantine', RELEASE_QUARANTINE: 'quarantine' };
const ON_ORDER_LABELS: Record<string, string> = { purchase_order: 'purchase_orders', transfer: 'transfers' };

/** unavailable and on_order of the levels that have any, summed from their movements by label. */
async function breakdownOf(client: Client, levels: Level[]): Promise<Breakdown> {
  const busy = levels.filter((l) => l.unavailable !== 0 || l.on_order !== 0);
  const out: Breakdown = new Map();
  if (!busy.length) return out;
  const sums = await records.sumHeldMovements(
    client,
    [...new Set(busy.map((l) => l.product_id))],
    [...new Set(busy.map((l) => l.warehouse_id))],
  );
  for (const s of sums) {
    const label =
      s.bucket === 'unavailable'
        ? (UNAVAILABLE_LABELS[s.reason ?? ''] ?? (s.reason ? s.reason.toLowerCase() : 'stock_level'))
        : (ON_ORDER_LABELS[s.reference_type ?? ''] ?? 'stock_level');
    const key = `${s.product_id}:${s.warehouse_id}:${s.bucket}`;
    const parts = out.get(key) ?? new Map<string, number>();
    parts.set(label, (parts.get(label) ?? 0) + (s._sum.delta ?? 0));
    out.set(key, parts);
  }
  return out;
}

function warehouseEntry(level: Level, warehouseName: string, breakdown: Breakdown): WarehouseInventory {
  const available = level.on_hand - level.committed - level.unavailable;
  const key = `${level.product_id}:${level.warehouse_id}`;
  return {
    warehouse_id: level.warehouse_id,
    warehouse_name: warehouseName,
    on_order: explained(level.on_order, breakdown.get(`${key}:on_order`)),
    unavailable: explained(level.unavailable, breakdown.get(`${key}:unavailable`)),
    committed: level.committed ? { count: level.committed, operations: [{ count: level.committed, label: 'open_orders' }] } : stored(0),
    on_hand: stored(level.on_hand),
    available: {
      count: available,
      operations: [
        { count: level.on_hand, label: 'on_hand' },
        { count: 0 - level.committed, label: 'committed' },
        { count: 0 - level.unavailable, label: 'unavailable' },
      ],
    },
  };
}

/** The caller's warehouses, narrowed to `only` when given (ids of other teams drop out). */
export function visibleWarehouses(client: Client, teamId: string, only?: string[]) {
  return records.findVisibleWarehouses(client, teamId, only);
}

export type Stock = { inventory_by_warehouse: WarehouseInventory[]; totals: InventoryTotals };

/** A stock level with its warehouse's name, as stockOf takes them. */
export type NamedLevel = Level & { warehouse_name: string };

/** Per-product inventory at the given warehouses, for a whole page of products in one query. */
export async function inventoryFor(
  client: Client,
  productIds: string[],
  warehouses: { id: string; name: string }[],
): Promise<Map<string, Stock>> {
  const levels =
    productIds.length && warehouses.length
      ? await records.findStockLevels(
          client,
          productIds,
          warehouses.map((w) => w.id),
        )
      : [];
  const order = new Map(warehouses.map((w, i) => [w.id, i]));
  const names = new Map(warehouses.map((w) => [w.id, w.name]));
  levels.sort((a, b) => order.get(a.warehouse_id)! - order.get(b.warehouse_id)!);
  return stockOf(
    client,
    productIds,
    levels.map((l) => ({ ...l, warehouse_name: names.get(l.warehouse_id)! })),
  );
}

/**
 * Per-product inventory from its stock levels (in the order of the warehouses: name, then id).
 * Levels with unavailable or on-order units are explained from the ledger, in one more query.
 */
export async function stockOf(client: Client, productIds: string[], levels: NamedLevel[]): Promise<Map<string, Stock>> {
  const result = new Map<string, Stock>();
  for (const id of productIds) {
    result.set(id, { inventory_by_warehouse: [], totals: { available: 0, on_hand: 0, committed: 0, unavailable: 0, on_order: 0 } });
  }
  const breakdown = await breakdownOf(client, levels);
  for (const level of levels) {
    const entry = result.get(level.product_id)!;
    const w = warehouseEntry(level, level.warehouse_name, breakdown);
    entry.inventory_by_warehouse.push(w);
    for (const k of ['available', 'on_hand', 'committed', 'unavailable', 'on_order'] as const) entry.totals[k] += w[k].count;
  }
  return result;
}
