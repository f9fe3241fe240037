import type { Db, Prisma, StorageSnapshot } from '../../db/types.js';
import { invalid } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { locationTypeNames, teamNames, warehouseNames } from '../names/index.js';
import { findSnapshotPage } from './store/records.js';

// GET /v1/ops/billing/storage-snapshots: the team's daily storage snapshots, by day then id
// (keyset paging; indexes (team_id, date, id) and (team_id, merchant_team_id, date, id)), each
// with the names of its warehouse, merchant and location type (one read each per page).

export interface SnapshotListQuery extends PageRequest {
  warehouse_id?: string;
  merchant_team_id?: string;
  location_type_id?: string;
  date_from?: string;
  date_to?: string;
  billed?: boolean;
  order?: 'asc' | 'desc';
}

export async function listStorageSnapshots(db: Db, teamId: string, q: SnapshotListQuery) {
  if (q.page < 0) throw invalid('query.page', 'must be >= 0');
  if (q.date_from && q.date_to && q.date_to < q.date_from) throw invalid('query.date_to', 'must not be before date_from');
  const where: Prisma.StorageSnapshotWhereInput = { team_id: teamId };
  if (q.warehouse_id) where.warehouse_id = q.warehouse_id;
  if (q.merchant_team_id) where.merchant_team_id = q.merchant_team_id;
  if (q.location_type_id) where.location_type_id = q.location_type_id === 'none' ? '' : q.location_type_id;
  if (q.date_from || q.date_to) where.date = { ...(q.date_from ? { gte: q.date_from } : {}), ...(q.date_to ? { lte: q.date_to } : {}) };
  if (q.billed !== undefined) where.charge_id = q.billed ? { not: null } : null;
  const dir = q.order ?? 'desc';
  const orderBy = [{ date: dir }, { id: dir }];
  const rows = await findSnapshotPage(db, pageArgs(q, where, orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  const [warehouses, teams, types] = await Promise.all([
    warehouseNames(
      db.prisma,
      page.data.map((s) => s.warehouse_id),
    ),
    teamNames(
      db.prisma,
      page.data.map((s) => s.merchant_team_id),
    ),
    locationTypeNames(
      db.prisma,
      page.data.map((s) => s.location_type_id),
    ),
  ]);
  const names = new Map([...warehouses, ...teams, ...types]);
  return { data: page.data.map((s) => snapshotView(s, names)), meta: page.meta };
}

/** A snapshot as the API shows it: locations without a type have location_type_id null. */
const snapshotView = (s: StorageSnapshot, names: ReadonlyMap<string, string>) => ({
  ...s,
  warehouse_name: names.get(s.warehouse_id) ?? null,
  merchant_team_name: names.get(s.merchant_team_id) ?? null,
  location_type_id: s.location_type_id || null,
  location_type_name: s.location_type_id ? (names.get(s.location_type_id) ?? null) : null,
});
