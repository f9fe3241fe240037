// The package, charge and file list cases of bench/lists.mjs (issue 9: the same treatment as
// orders, at 100,000 records each): every documented filter and sort of GET /v1/ops/packages,
// /v1/ops/charges and /v1/ops/files, alone and combined, plus a keyset cursor from the middle of
// each list. Ids for the filters (a fulfillment order with packages, a scan form, a merchant, an
// order with charges) are read from the seeded database, and the mid-list cursors are made from
// the row in the middle, so the cases work on any seeded database.
import path from 'node:path';
import { ROOT } from './lib.mjs';

const MB = 1_000_000;

/** [{ group, table, name, run(limit) }] for the three lists of the fulfiller team `team`. */
export async function recordListCases(db, team) {
  const { listPackages } = await import(path.join(ROOT, 'dist/domain/fulfillment/packages.js'));
  const { listCharges } = await import(path.join(ROOT, 'dist/domain/charges/charges.js'));
  const { listFiles } = await import(path.join(ROOT, 'dist/domain/files/list.js'));
  const { cursorAfter } = await import(path.join(ROOT, 'dist/domain/keyset.js'));
  const p = db.prisma;
  const cases = [];
  const add = (group, table, fn) => (name, q) =>
    cases.push({ group, table, name: `${group}: ${name}`, run: () => fn(db, team, { page: 0, limit: 20, ...q }) });
  /** The cursor after the row at the middle of the list in `orderBy` (skip is fine here: setup, not timed). */
  const middle = async (model, where, orderBy) => {
    const n = await model.count({ where });
    const row = n ? await model.findFirst({ where, orderBy, skip: Math.floor(n / 2) }) : null;
    return row ? cursorAfter(row, orderBy) : undefined;
  };
  const desc = [{ created_at: 'desc' }, { id: 'desc' }];

  const packages = add('packages', 'packages', listPackages);
  const fo = await p.package.groupBy({
    by: ['fulfillment_order_id'],
    where: { fulfiller_team_id: team },
    _count: true,
    orderBy: { _count: { fulfillment_order_id: 'desc' } },
    take: 1,
  });
  const form = await p.package.findFirst({
    where: { fulfiller_team_id: team, scan_form_id: { not: null } },
    orderBy: { created_at: 'desc' },
  });
  packages('created_at desc (default)', {});
  packages('status=PENDING', { status: ['PENDING'] });
  packages('status=FULFILLED', { status: ['FULFILLED'] });
  packages('status=PENDING,FULFILLED', { status: ['PENDING', 'FULFILLED'] });
  if (fo[0]?.fulfillment_order_id) {
    packages('fulfillment_order_id', { fulfillment_order_id: fo[0].fulfillment_order_id });
    packages('fulfillment_order_id + status=PENDING', { fulfillment_order_id: fo[0].fulfillment_order_id, status: ['PENDING'] });
  }
  if (form) {
    packages('scan_form_id', { scan_form_id: form.scan_form_id });
    packages('scan_form_id + status=FULFILLED', { scan_form_id: form.scan_form_id, status: ['FULFILLED'] });
  }
  const pkgCursor = await middle(p.package, { fulfiller_team_id: team }, desc);
  if (pkgCursor) packages('cursor at the middle', { cursor: pkgCursor });

  const charges = add('charges', 'charges', listCharges);
  const merchant = await p.charge.findFirst({
    where: { fulfiller_team_id: team },
    select: { merchant_team_id: true },
    orderBy: { created_at: 'desc' },
  });
  const withOrder = await p.charge.findFirst({
    where: { fulfiller_team_id: team, order_id: { not: null } },
    select: { order_id: true },
    orderBy: { created_at: 'asc' },
  });
  charges('created_at desc (default)', {});
  charges('created_at asc', { order: 'asc' });
  for (const c of ['SHIPPING', 'STORAGE', 'RECEIVING']) charges(`category=${c}`, { category: c });
  if (merchant) {
    charges('merchant_team_id', { merchant_team_id: merchant.merchant_team_id });
    charges('merchant + category=RECEIVING + asc', { merchant_team_id: merchant.merchant_team_id, category: 'RECEIVING', order: 'asc' });
  }
  if (withOrder) {
    charges('order_id', { order_id: withOrder.order_id });
    charges('order_id + category=SHIPPING', { order_id: withOrder.order_id, category: 'SHIPPING' });
  }
  charges('category=STORAGE + asc', { category: 'STORAGE', order: 'asc' });
  const chargeCursor = await middle(p.charge, { fulfiller_team_id: team }, desc);
  if (chargeCursor) charges('cursor at the middle', { cursor: chargeCursor });

  const files = add('files', 'files', listFiles);
  for (const by of ['created_at', 'updated_at', 'name', 'size']) {
    for (const order of ['desc', 'asc'])
      files(`${by} ${order}${by === 'created_at' && order === 'desc' ? ' (default)' : ''}`, { order_by: by, order });
  }
  files('search common "invoice"', { search: 'invoice' });
  files('search rare "zygomorphic"', { search: 'zygomorphic' });
  files('mimetype=application/pdf', { mimetype: 'application/pdf' });
  files('mimetype=image/*', { mimetype: 'image/*' });
  files('mimetype=image/gif (rare)', { mimetype: 'image/gif' });
  files('min_size=10 MB', { min_size: 10 * MB });
  files('min_size=45 MB (rare)', { min_size: 45 * MB });
  files('mimetype=video/* (no rows)', { mimetype: 'video/*' });
  files('application/pdf,text/csv + updated_at desc', { mimetype: 'application/pdf,text/csv', order_by: 'updated_at' });
  files('image/gif,video/mp4 + name desc', { mimetype: 'image/gif,video/mp4', order_by: 'name', order: 'desc' });
  files('min_size=49.9 MB (very rare) + name asc', { min_size: 49.9 * MB, order_by: 'name', order: 'asc' });
  files('image/* + size asc', { mimetype: 'image/*', order_by: 'size', order: 'asc' });
  files('image/gif + name desc', { mimetype: 'image/gif', order_by: 'name', order: 'desc' });
  files('min_size=45 MB + updated_at asc', { min_size: 45 * MB, order_by: 'updated_at', order: 'asc' });
  files('search "invoice" + name asc', { search: 'invoice', order_by: 'name', order: 'asc' });
  files('search rare + text/csv,application/pdf', { search: 'zygomorphic', mimetype: 'text/csv,application/pdf' });
  files('search "2025-0" + min_size=1 MB + size desc', { search: '2025-0', min_size: MB, order_by: 'size', order: 'desc' });
  const fileCursor = await middle(p.file, { team_id: team }, [{ name: 'asc' }, { id: 'asc' }]);
  if (fileCursor) files('name asc, cursor at the middle', { order_by: 'name', order: 'asc', cursor: fileCursor });
  return cases;
}
