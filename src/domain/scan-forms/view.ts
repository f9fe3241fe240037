import type { Db, Prisma, TxClient } from '../../db/types.js';
import { notFound } from '../errors.js';
import { warehouseNames } from '../inventory/index.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { findScanFormPage, findTeamScanForm } from './store.js';

// What scan form answers show, and the list and get of the caller's scan forms (newest first).
// Its packages: GET /v1/ops/packages?scan_form_id=…

type Row = Prisma.ScanFormGetPayload<object>;
type Client = Db['prisma'] | TxClient;

function present(f: Row, names: Map<string, string>) {
  return {
    id: f.id,
    scan_status: 'SCANNED' as const,
    warehouse_id: f.warehouse_id,
    warehouse_name: names.get(f.warehouse_id) ?? null,
    carrier_id: f.carrier_id,
    carrier_name: f.carrier_name,
    form_date: f.form_date,
    package_count: f.package_count,
    manifest_url: f.manifest_url,
    fulfiller_team_id: f.team_id,
    created_by_key_id: f.created_by_key_id,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

export type ScanFormView = ReturnType<typeof present>;

export interface ScanFormQuery extends PageRequest {
  warehouse_id?: string;
  carrier_id?: string;
  form_date?: string;
}

const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

export async function listScanForms(db: Db, teamId: string, q: ScanFormQuery) {
  const where: Prisma.ScanFormWhereInput = { team_id: teamId };
  if (q.warehouse_id) where.warehouse_id = q.warehouse_id;
  if (q.carrier_id) where.carrier_id = q.carrier_id;
  if (q.form_date) where.form_date = q.form_date;
  const rows = await findScanFormPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  const names = await warehouseNames(
    db.prisma,
    page.data.map((f) => f.warehouse_id),
  );
  return { meta: page.meta, data: page.data.map((f) => present(f, names)) };
}

export async function loadScanForm(client: Client, teamId: string, id: string): Promise<ScanFormView> {
  const f = await findTeamScanForm(client, teamId, id);
  if (!f) throw notFound('Scan form', id);
  return present(f, await warehouseNames(client, [f.warehouse_id]));
}
