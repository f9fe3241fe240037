import type { Db, Prisma, StorageSnapshot } from '../../db/types.js';
import { invalid } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { findSnapshotPage } from './store/records.js';

// GET /v1/ops/billing/storage-snapshots: the team's daily storage snapshots, by day then id
// (keyset paging; indexes (team_id, date, id) and (team_id, merchant_team_id, date, id)).

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
  return toPage(rows, q, undefined, orderBy);
}

/** A snapshot as the API shows it: locations without a type have location_type_id null. */
export const snapshotView = (s: StorageSnapshot) => ({ ...s, location_type_id: s.location_type_id || null });
