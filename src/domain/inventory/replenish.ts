import type { Db, TxClient } from '../../db/types.js';
import { cursorValues } from '../keyset.js';
import { toPage, type PageRequest } from '../pagination.js';
import { configOf } from '../products/index.js';
import { suggestPutaway } from '../locations/index.js';
import { today } from '../clock.js';
import { overstockPairs, pickableAndOverstock, type BinStockRow, type Pair } from './store/bins.js';
import { findTeamWarehouseIds } from './store/lists.js';
import { findProductsWithConfig } from './store/products.js';

// GET /v1/ops/replenishments (issue 28; docs/floor.md): the replenishment tasks, computed from
// stock when asked (nothing is stored, so a task disappears when the move that completes it is
// made). A task is a product whose PICKABLE bins in a warehouse hold fewer usable units (expired
// lots do not count) than its config.replenishment_minimum_level while OVERSTOCK bins hold some.
// It names the pickable bin to fill (the putaway rule: the product's pickable bin, else an empty
// one, else the default location) and the overstock bins to take from in FEFO order. The list is
// keyset-paged over (warehouse_id, product_id): candidates (products with overstock stock, the
// location_stock (warehouse_id, product_id) index) are read in batches until a page is full.

export interface ReplenishmentQuery extends PageRequest {
  warehouse_id?: string[];
  product_id?: string[];
}

const ORDER = [{ warehouse_id: 'asc' as const }, { product_id: 'asc' as const }];
const BATCH = 200;

type Row = BinStockRow;

export async function listReplenishments(db: Db, teamId: string, q: ReplenishmentQuery) {
  const client = db.prisma as unknown as TxClient;
  const warehouses = (await findTeamWarehouseIds(client, teamId, q.warehouse_id)).map((w) => w.id);
  const skip = q.cursor ? 0 : q.page * q.limit;
  let after = q.cursor ? (cursorValues(q.cursor, ORDER) as [string, string]) : null;
  const found: Task[] = [];
  while (warehouses.length && found.length < skip + q.limit + 1) {
    const pairs = await candidates(client, warehouses, q.product_id, after);
    if (pairs.length) found.push(...(await tasksOf(client, pairs)));
    if (pairs.length < BATCH) break;
    after = [pairs[pairs.length - 1].warehouse_id, pairs[pairs.length - 1].product_id];
  }
  return toPage(found.slice(skip), q, undefined, ORDER);
}

/** (warehouse, product) pairs after the cursor whose OVERSTOCK bins hold units, in key order. */
async function candidates(client: TxClient, warehouses: string[], products: string[] | undefined, after: [string, string] | null) {
  return overstockPairs(client, warehouses, products, after, BATCH);
}

type Task = NonNullable<ReturnType<typeof taskOf>>;

/** The tasks among the candidate pairs (those below their minimum), in the pairs' order. */
async function tasksOf(client: TxClient, pairs: Pair[]) {
  const productIds = [...new Set(pairs.map((p) => p.product_id))];
  const warehouseIds = [...new Set(pairs.map((p) => p.warehouse_id))];
  const [rows, products] = await Promise.all([
    pickableAndOverstock(client, warehouseIds, productIds),
    findProductsWithConfig(client, productIds),
  ]);
  const product = new Map(products.map((p) => [p.id, p]));
  const day = today();
  const usable = rows
    .map((r) => ({ ...r, on_hand: Number(r.on_hand) }))
    .filter((r) => r.expiration_date === null || r.expiration_date >= day);
  const drafts = pairs.flatMap((pair) => {
    const p = product.get(pair.product_id);
    const mine = usable.filter((r) => r.warehouse_id === pair.warehouse_id && r.product_id === pair.product_id);
    const draft = p ? taskOf(p, pair, mine) : null;
    return draft ? [draft] : [];
  });
  // The bin to fill: the putaway rule, asked once per warehouse for the products that need it.
  for (const warehouseId of new Set(drafts.map((d) => d.warehouse_id))) {
    const mine = drafts.filter((d) => d.warehouse_id === warehouseId);
    const to = await suggestPutaway(
      client,
      warehouseId,
      mine.map((d) => d.product_id),
    );
    for (const d of mine) d.to_location = to.get(d.product_id)!.location_name;
    for (const d of mine) d.to_location_id = to.get(d.product_id)!.location_id;
  }
  return drafts;
}

/** One product at one warehouse: a task when pickable < minimum and overstock holds units; else null. */
function taskOf(p: { id: string; sku: string | null; name: string; config: unknown }, pair: Pair, rows: Row[]) {
  const cfg = configOf(p.config);
  const min = cfg.replenishment_minimum_level;
  if (min === null || min === undefined) return null;
  const pickable = rows.filter((r) => r.type === 'PICKABLE').reduce((n, r) => n + r.on_hand, 0);
  // FEFO: the lot expiring first leaves overstock first; lots with no date last.
  const over = rows
    .filter((r) => r.type === 'OVERSTOCK')
    .sort((a, b) => (a.expiration_date ?? '9999').localeCompare(b.expiration_date ?? '9999'));
  const available = over.reduce((n, r) => n + r.on_hand, 0);
  if (pickable >= min || !available) return null;
  const needed = Math.ceil(min - pickable);
  // Up to the maximum level when set, in whole increments, never more than overstock holds.
  const target = Math.max(cfg.replenishment_maximum_level ?? min, min) - pickable;
  const inc = cfg.replenishment_increment_level ?? 0;
  const suggested = Math.min(available, inc > 0 ? Math.ceil(target / inc) * inc : Math.ceil(target));
  let left = suggested;
  return {
    product_id: pair.product_id,
    sku: p.sku,
    product_name: p.name,
    warehouse_id: pair.warehouse_id,
    to_location: '',
    to_location_id: '',
    minimum_level: min,
    pickable_on_hand: pickable,
    overstock_available: available,
    quantity_needed: needed,
    quantity_suggested: suggested,
    from_locations: over.map((r) => {
      const take = Math.min(left, r.on_hand);
      left -= take;
      return {
        location: r.name,
        location_id: r.location_id,
        lot_code: r.lot_code || null,
        expiration_date: r.expiration_date,
        available: r.on_hand,
        quantity: take,
      };
    }),
  };
}
