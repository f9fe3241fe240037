import type { Client } from './reach.js';

// Inventory as products show it. Stock levels are per product and warehouse; a fulfiller sees
// the levels at its own warehouses (optionally narrowed by the warehouse_id filter).
//
// Each quantity is { count, operations }: operations are the terms the count is made of, and
// their counts always add up to count. A stored quantity (on_hand, committed, unavailable,
// on_order) is one term, label "stock_level"; available is derived:
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

function warehouseEntry(level: Level, warehouseName: string): WarehouseInventory {
  const available = level.on_hand - level.committed - level.unavailable;
  return {
    warehouse_id: level.warehouse_id,
    warehouse_name: warehouseName,
    on_order: stored(level.on_order),
    unavailable: stored(level.unavailable),
    committed: stored(level.committed),
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
  return client.warehouse.findMany({
    where: { team_id: teamId, ...(only ? { id: { in: only } } : {}) },
    select: { id: true, name: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}

/** Per-product inventory at the given warehouses, for a whole page of products in one query. */
export async function inventoryFor(
  client: Client,
  productIds: string[],
  warehouses: { id: string; name: string }[],
): Promise<Map<string, { inventory_by_warehouse: WarehouseInventory[]; totals: InventoryTotals }>> {
  const levels = productIds.length && warehouses.length
    ? await client.inventoryLevel.findMany({
      where: { product_id: { in: productIds }, warehouse_id: { in: warehouses.map((w) => w.id) } },
    })
    : [];
  const order = new Map(warehouses.map((w, i) => [w.id, i]));
  const names = new Map(warehouses.map((w) => [w.id, w.name]));
  levels.sort((a, b) => order.get(a.warehouse_id)! - order.get(b.warehouse_id)!);
  const result = new Map<string, { inventory_by_warehouse: WarehouseInventory[]; totals: InventoryTotals }>();
  for (const id of productIds) {
    result.set(id, { inventory_by_warehouse: [], totals: { available: 0, on_hand: 0, committed: 0, unavailable: 0, on_order: 0 } });
  }
  for (const level of levels) {
    const entry = result.get(level.product_id)!;
    const w = warehouseEntry(level, names.get(level.warehouse_id)!);
    entry.inventory_by_warehouse.push(w);
    for (const k of ['available', 'on_hand', 'committed', 'unavailable', 'on_order'] as const) entry.totals[k] += w[k].count;
  }
  return result;
}
