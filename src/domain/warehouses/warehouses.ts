import type { Db } from '../../db/types.js';
import { canonicalTimeZone } from '../../shared/time-zones.js';
import { invalid, notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { findTeamWarehouse, findWarehousePage, updateTeamWarehouse } from './store.js';

// Warehouses of a fulfiller team (created by `fos admin warehouse create`); over the API they are
// read, and their time zone set (where their day ends for daily storage, docs/billing.md). The list exists so an operator with a key can find warehouse ids, and so the CLI
// can turn `--warehouse Main` into an id: `name` filters exactly (index team_id, name, id).

export interface WarehouseListQuery extends PageRequest {
  name?: string;
  id_prefix?: string;
}

const ORDER = [{ name: 'asc' }, { id: 'asc' }];

export async function listWarehouses(db: Db, teamId: string, q: WarehouseListQuery) {
  const where = { team_id: teamId, ...(q.name !== undefined ? { name: q.name } : {}) };
  const rows = await findWarehousePage(db.prisma, pageArgs(q, where, ORDER));
  return toPage(rows, q, undefined, ORDER);
}

export async function getWarehouse(db: Db, teamId: string, id: string) {
  const row = await findTeamWarehouse(db.prisma, teamId, id);
  if (!row) throw notFound('Warehouse', id);
  return row;
}

/** The canonical name of an IANA time zone the runtime knows, else a 400 at `path`. */
export function checkTimeZone(zone: string, path: string): string {
  const canonical = canonicalTimeZone(zone);
  if (!canonical) throw invalid(path, 'must be an IANA time zone name, e.g. UTC or America/Los_Angeles');
  return canonical;
}

/** PATCH /v1/ops/warehouses/{id}: the time zone (compare-free: one column, last write wins). */
export async function updateWarehouse(db: Db, teamId: string, id: string, input: { time_zone?: string }) {
  const data = input.time_zone !== undefined ? { time_zone: checkTimeZone(input.time_zone, 'body.time_zone') } : {};
  const { count } = await updateTeamWarehouse(db.prisma, teamId, id, data);
  if (!count) throw notFound('Warehouse', id);
  return getWarehouse(db, teamId, id);
}
