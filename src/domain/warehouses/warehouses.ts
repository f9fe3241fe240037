import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';

// Warehouses of a fulfiller team, read-only over the API (created by `fos admin warehouse
// create`). The list exists so an operator with a key can find warehouse ids, and so the CLI
// can turn `--warehouse Main` into an id: `name` filters exactly (index team_id, name, id).

export interface WarehouseListQuery extends PageRequest {
  name?: string;
  id_prefix?: string;
}

const SELECT = {
  id: true,
  name: true,
  address1: true,
  city: true,
  state: true,
  zip: true,
  country: true,
  label_format: true,
  created_at: true,
  updated_at: true,
} as const;

const ORDER = [{ name: 'asc' }, { id: 'asc' }];

export async function listWarehouses(db: Db, teamId: string, q: WarehouseListQuery) {
  const where = { team_id: teamId, ...(q.name !== undefined ? { name: q.name } : {}) };
  const rows = await db.prisma.warehouse.findMany({ ...pageArgs(q, where, ORDER), select: SELECT });
  return toPage(rows, q, undefined, ORDER);
}

export async function getWarehouse(db: Db, teamId: string, id: string) {
  const row = await db.prisma.warehouse.findFirst({ where: { id, team_id: teamId }, select: SELECT });
  if (!row) throw notFound('Warehouse', id);
  return row;
}
