import type { Db, Prisma, TxClient } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import * as store from './store.js';
import type { RateStrategy } from '../../contract/rate-strategy.js';

// What label batch answers show: the batch with its counts, and (get) its items in file order.

type BatchRow = Prisma.LabelBatchGetPayload<object>;
type ItemRow = Prisma.LabelBatchItemGetPayload<object>;
type Client = Db['prisma'] | TxClient;
type Counts = { pending: number; bought: number; failed: number; skipped: number };

export const labelBatchPath = (origin: string, id: string) => `${origin}/v1/ops/label-batches/${id}`;

function present(b: BatchRow, c: Counts) {
  return {
    id: b.id,
    status: b.status as 'RUNNING' | 'COMPLETED',
    package_count: b.package_count,
    ...c,
    rate_strategy: b.rate_strategy as RateStrategy | null,
    rate_within_days: b.rate_within_days,
    rate_exclude_carrier_ids: Array.isArray(b.rate_exclude_carrier_ids) ? (b.rate_exclude_carrier_ids as string[]) : null,
    carrier_id: b.carrier_id,
    service_id: b.service_id,
    label_format: b.label_format as 'PDF' | 'ZPL',
    packing_slips: b.packing_slips,
    picking_session_id: b.picking_session_id,
    labels_url: `${labelBatchPath(b.origin, b.id)}/labels`,
    summary_url: `${labelBatchPath(b.origin, b.id)}/summary.csv`,
    fulfiller_team_id: b.team_id,
    created_by_key_id: b.created_by_key_id,
    created_at: b.created_at,
    updated_at: b.updated_at,
    completed_at: b.completed_at,
  };
}

const presentItem = (i: ItemRow) => ({
  package_id: i.package_id,
  position: i.position,
  status: i.status as 'PENDING' | 'BOUGHT' | 'FAILED' | 'SKIPPED',
  message: i.message,
  tracking_number: i.tracking_number,
  carrier_id: i.carrier_id,
  service_id: i.service_id,
  cost: i.cost,
  cost_currency: i.cost_currency,
});

export type LabelBatchItemView = ReturnType<typeof presentItem>;

/** Item counts by status of each batch, one grouped query. */
async function countsOf(client: Client, ids: string[]): Promise<Map<string, Counts>> {
  const rows = ids.length ? await store.countItemsByBatch(client, ids) : [];
  const out = new Map(ids.map((id) => [id, { pending: 0, bought: 0, failed: 0, skipped: 0 }]));
  for (const r of rows) out.get(r.batch_id)![r.status.toLowerCase() as keyof Counts] = r._count._all;
  return out;
}

export async function loadLabelBatch(client: Client, teamId: string, id: string) {
  const b = await store.findTeamBatch(client, teamId, id);
  if (!b) throw notFound('Label batch', id);
  const items = await store.findItems(client, id);
  const c: Counts = { pending: 0, bought: 0, failed: 0, skipped: 0 };
  for (const i of items) c[i.status.toLowerCase() as keyof Counts]++;
  return { ...present(b, c), items: items.map(presentItem) };
}

export type LabelBatchView = Awaited<ReturnType<typeof loadLabelBatch>>;

const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

export async function listLabelBatches(db: Db, teamId: string, q: PageRequest & { status?: string }) {
  const where: Prisma.LabelBatchWhereInput = { team_id: teamId };
  if (q.status) where.status = q.status;
  const rows = await store.findBatchPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  const counts = await countsOf(
    db.prisma,
    page.data.map((b) => b.id),
  );
  return { meta: page.meta, data: page.data.map((b) => present(b, counts.get(b.id)!)) };
}
