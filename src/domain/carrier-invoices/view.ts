import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import type { BilledCorrection } from './billing.js';
import { findImportPage, findTeamImport } from './store.js';

// An import as its answer showed it (stored with the import, so a re-import replays it), and the
// list and get of the caller's imports, newest first.

export interface ImportView {
  id: string;
  filename: string;
  replayed: boolean;
  line_count: number;
  corrected: number;
  unchanged: number;
  unmatched: { line: number; tracking_number: string; reason: string }[];
  charges: BilledCorrection[];
  created_by_key_id: string | null;
  created_at: string;
}

const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

export async function listImports(db: Db, teamId: string, q: PageRequest) {
  const rows = await findImportPage(db.prisma, pageArgs(q, { team_id: teamId }, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  return { meta: page.meta, data: page.data.map((r) => r.result as unknown as ImportView) };
}

export async function getImport(db: Db, teamId: string, id: string): Promise<ImportView> {
  const r = await findTeamImport(db.prisma, teamId, id);
  if (!r) throw notFound('Carrier invoice import', id);
  return r.result as unknown as ImportView;
}
