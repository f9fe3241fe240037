import { transaction } from '../../db/tx.js';
import { inLists } from '../../db/in-lists.js';
import type { Db, TxClient } from '../../db/types.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { checkRateOptions } from '../orders/index.js';
import type { RateStrategy } from '../../contract/rate-strategy.js';
import { loadLabelBatch, type LabelBatchView } from './view.js';
import * as store from './store.js';

// POST /v1/ops/label-batches: which packages a batch labels, in which order, written with its
// items in one transaction; the runner (run.ts) buys the labels afterwards.

export interface LabelBatchInput {
  package_ids?: string[];
  picking_session_id?: string;
  fulfillment_order_ids?: string[];
  rate_strategy?: RateStrategy;
  rate_within_days?: number;
  rate_exclude_carrier_ids?: string[];
  carrier_id?: string;
  service_id?: string;
  label_format?: 'PDF' | 'ZPL';
  packing_slips?: boolean;
}

type Pkg = { id: string; fulfillment_order_id: string | null; created_at: Date };

function sourceOf(input: LabelBatchInput) {
  const given = (['package_ids', 'picking_session_id', 'fulfillment_order_ids'] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1) {
    throw new DomainError('validation-failed', 'Name the packages one way: package_ids, picking_session_id or fulfillment_order_ids.', {
      errors: [{ path: 'body', message: given.length ? `got ${given.join(' and ')}` : 'one of them is required' }],
    });
  }
  return given[0];
}

async function byIds(tx: TxClient, teamId: string, ids: string[]): Promise<Pkg[]> {
  const found = new Map<string, Pkg>();
  for (const some of inLists(ids)) {
    for (const p of await store.findTeamPackages(tx, teamId, some)) found.set(p.id, p);
  }
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw notFound('Package', missing[0]);
  return ids.map((id) => found.get(id)!);
}

/** The open packages of these fulfillment orders, in the orders' order, then oldest first. */
async function byFulfillmentOrders(tx: TxClient, teamId: string, foIds: string[]): Promise<Pkg[]> {
  const rank = new Map(foIds.map((id, i) => [id, i]));
  const rows: Pkg[] = [];
  for (const some of inLists(foIds)) {
    rows.push(...(await store.findOpenPackagesOf(tx, teamId, some)));
  }
  return rows.sort((a, b) => rank.get(a.fulfillment_order_id!)! - rank.get(b.fulfillment_order_id!)! || +a.created_at - +b.created_at);
}

/**
 * A picking session's open packages in pick order: by the first pick scan of their fulfillment
 * order (the order the picker walked the bins), packages of orders never scanned last.
 */
async function bySession(tx: TxClient, teamId: string, sessionId: string): Promise<Pkg[]> {
  const session = await store.teamSessionExists(tx, teamId, sessionId);
  if (!session) throw notFound('Picking session', sessionId);
  const fos = await store.findSessionOrderIds(tx, teamId, sessionId);
  const pkgs = await store.findOpenSessionPackages(
    tx,
    teamId,
    sessionId,
    fos.map((f) => f.id),
  );
  const scans = await store.firstScanPerOrder(tx, sessionId);
  const first = new Map(scans.map((s) => [s.fulfillment_order_id, s._min.created_at?.getTime() ?? Infinity]));
  const at = (p: Pkg) => first.get(p.fulfillment_order_id ?? '') ?? Infinity;
  return pkgs.sort((a, b) => at(a) - at(b) || +a.created_at - +b.created_at || a.id.localeCompare(b.id));
}

export async function createLabelBatch(
  db: Db,
  caller: { teamId: string; keyId: string | null },
  input: LabelBatchInput,
  origin: string,
): Promise<LabelBatchView> {
  const source = sourceOf(input);
  checkRateOptions(input);
  return transaction(db, async (tx) => {
    const pkgs =
      source === 'package_ids'
        ? await byIds(tx, caller.teamId, input.package_ids!)
        : source === 'fulfillment_order_ids'
          ? await byFulfillmentOrders(tx, caller.teamId, input.fulfillment_order_ids!)
          : await bySession(tx, caller.teamId, input.picking_session_id!);
    if (!pkgs.length) throw conflict('No open package to label: make packages first (fos pack, POST /v1/ops/packages).');
    const batch = await store.insertBatch(
      tx,
      {
        team_id: caller.teamId,
        rate_strategy: input.rate_strategy ?? null,
        rate_within_days: input.rate_within_days ?? null,
        rate_exclude_carrier_ids: input.rate_exclude_carrier_ids ?? undefined,
        carrier_id: input.carrier_id ?? null,
        service_id: input.service_id ?? null,
        label_format: input.label_format ?? 'PDF',
        packing_slips: input.packing_slips ?? false,
        picking_session_id: input.picking_session_id ?? null,
        origin,
        package_count: pkgs.length,
        created_by_key_id: caller.keyId,
      },
      pkgs.map((p) => p.id),
    );
    return loadLabelBatch(tx, caller.teamId, batch.id);
  });
}
