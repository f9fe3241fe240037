// The ops product list cases of bench/lists.mjs (issue 9: products at 100,000 records): every
// documented filter and sort of GET /v1/ops/products (search, order_by/order, type, team_id,
// has_image, has_barcode, has_remote_products, was_inspected, warehouse_id), alone and combined,
// rare values, keyset cursors from the middle and a deep OFFSET page, timed through
// listOpsProducts as the route calls it (a fulfiller key reaching its delegated merchants).
// Ids (a merchant, the warehouses by how many products they stock) are read from the seeded
// database, so the cases work on any database scripts/seed-scale.mjs filled.
import path from 'node:path';
import { ROOT } from './lib.mjs';

/** [{ group, table, name, run() }] for the ops product list of the fulfiller team `team`. */
export async function productListCases(db, team) {
  const { listOpsProducts } = await import(path.join(ROOT, 'dist/domain/products/products.js'));
  const { reachableTeamIds } = await import(path.join(ROOT, 'dist/domain/products/reach.js'));
  const { opsWhere, orderOf } = await import(path.join(ROOT, 'dist/domain/products/query.js'));
  const { cursorAfter } = await import(path.join(ROOT, 'dist/domain/keyset.js'));
  const p = db.prisma;
  const caller = { teamId: team, teamKind: 'FULFILLER' };
  const reach = await reachableTeamIds(p, caller);
  const cases = [];
  const products = (name, q) =>
    cases.push({
      group: 'products',
      table: 'products',
      name: `products: ${name}`,
      run: () => listOpsProducts(db, caller, { page: 0, limit: 20, ...q }),
    });
  /** The cursor after the middle row of the list `q` selects (setup, not timed). */
  const middle = async (q) => {
    const where = opsWhere(q, reach);
    const orderBy = orderOf(q);
    const n = await p.product.count({ where });
    const row = n ? await p.product.findFirst({ where, orderBy, skip: Math.floor(n / 2) }) : null;
    return row ? cursorAfter(row, orderBy) : undefined;
  };
  // Warehouses of the team, most stocked first: the seed's last one stocks a handful of products.
  const stocked = await p.inventoryLevel.groupBy({
    by: ['warehouse_id'],
    where: { warehouse_id: { in: (await p.warehouse.findMany({ where: { team_id: team }, select: { id: true } })).map((w) => w.id) } },
    _count: true,
    orderBy: { _count: { warehouse_id: 'desc' } },
  });
  const [common, second] = stocked.map((w) => w.warehouse_id);
  const rare = stocked.length > 2 ? stocked.at(-1).warehouse_id : undefined;
  const merchant = reach.find((t) => t !== team);

  for (const by of ['created_at', 'updated_at']) {
    for (const order of ['desc', 'asc'])
      products(`${by} ${order}${by === 'created_at' && order === 'desc' ? ' (default)' : ''}`, { order_by: by, order });
  }
  products('team_id=own team', { team_id: team });
  if (merchant) products('team_id=merchant + updated_at asc', { team_id: merchant, order_by: 'updated_at', order: 'asc' });
  products('search common "mug"', { search: 'mug' });
  products('search "sku-00123" (100 rows)', { search: 'sku-00123' });
  products('search rare "quillfeather"', { search: 'quillfeather' });
  products('search 2 characters "zz" (LIKE)', { search: 'zz' });
  products('type=VIRTUAL_BUNDLE', { type: 'VIRTUAL_BUNDLE' });
  products('type=ASSEMBLY (rare)', { type: 'ASSEMBLY' });
  products('type=VIRTUAL_BUNDLE,ASSEMBLY + updated_at asc', { type: 'VIRTUAL_BUNDLE,ASSEMBLY', order_by: 'updated_at', order: 'asc' });
  for (const flag of ['has_image', 'has_barcode', 'has_remote_products', 'was_inspected']) {
    for (const v of [true, false]) products(`${flag}=${v}`, { [flag]: v });
  }
  if (common) products('warehouse_id=most stocked', { warehouse_id: common });
  if (rare) products('warehouse_id=rare (a handful)', { warehouse_id: rare });
  if (second && rare) products('warehouse_id=second,rare + created_at asc', { warehouse_id: `${second},${rare}`, order: 'asc' });
  products('type=VIRTUAL_BUNDLE + has_image=true + updated_at asc', {
    type: 'VIRTUAL_BUNDLE',
    has_image: true,
    order_by: 'updated_at',
    order: 'asc',
  });
  products('search "mug" + has_remote_products=true + asc', { search: 'mug', has_remote_products: true, order: 'asc' });
  products('search rare + has_barcode=true', { search: 'quillfeather', has_barcode: true });
  if (merchant && second) {
    products('was_inspected=true + warehouse_id + team_id=merchant', { was_inspected: true, warehouse_id: second, team_id: merchant });
  }
  if (rare)
    products('warehouse_id=rare + has_barcode=true + updated_at desc', { warehouse_id: rare, has_barcode: true, order_by: 'updated_at' });
  products('type=ASSEMBLY + was_inspected=true + has_image=false (very rare)', { type: 'ASSEMBLY', was_inspected: true, has_image: false });
  products('has_image=false + has_barcode=false + has_remote_products=false', {
    has_image: false,
    has_barcode: false,
    has_remote_products: false,
  });
  for (const [name, q] of [
    ['created_at desc', {}],
    ['updated_at asc', { order_by: 'updated_at', order: 'asc' }],
    ['type=VIRTUAL_BUNDLE', { type: 'VIRTUAL_BUNDLE' }],
    ['has_remote_products=true + updated_at desc', { has_remote_products: true, order_by: 'updated_at' }],
  ]) {
    const cursor = await middle(q);
    if (cursor) products(`${name}, cursor at the middle`, { ...q, cursor });
  }
  products('page 500 (OFFSET 10,000)', { page: 500 });
  products('has_image=true, page 100 (OFFSET 2,000)', { has_image: true, page: 100 });
  return cases;
}
