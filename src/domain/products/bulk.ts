import type { Db, TxClient } from '../../db/types.js';
import { statementsOf } from '../../db/statements.js';
import { transaction } from '../../db/tx.js';
import { once, sweepOldAnswers, type Answer } from '../idempotency/index.js';
import type { ProblemKind } from '../errors.js';
import type { ProductInput } from './fields.js';
import { opsOwner } from './products.js';
import type { Caller } from './reach.js';
import type { Owner } from './write.js';
import { insertProducts, lockBySku, updateProducts, type LockedProduct } from './bulk-write.js';
import { skuOwners, skuTaken, type SkuOwner } from './sku.js';

// POST /v1/ops/products/bulk: up to 1,000 products upserted by SKU within one owner team (the
// caller's, or a delegated merchant's). A SKU that names an existing product of the team updates
// it with the fields given; an unknown SKU creates a product (name and type required). The whole
// request is one transaction of a handful of statements (bulk-write.ts; issue 29 item 3): the
// team's products with these SKUs are locked and read, every row is checked here, and the rows
// that pass are written together. A row that fails a check is reported with its index and the
// others are applied, as when each row was its own transaction: every refusal a row could meet in
// POST/PATCH of one product (the bulk rows carry no component lists) is decided before writing.
// With an Idempotency-Key the request is applied once; a repeat answers what the first answered.

export interface BulkRow extends ProductInput {
  sku: string;
}

export interface BulkResult {
  index: number;
  sku: string;
  status: 'created' | 'updated' | 'failed';
  id: string | null;
  error: { kind: ProblemKind; detail: string } | null;
}

export interface BulkAnswer {
  created: number;
  updated: number;
  failed: number;
  results: BulkResult[];
}

export interface BulkInput {
  merchant_team_id?: string;
  products: BulkRow[];
}

export async function bulkUpsertProducts(db: Db, caller: Caller, input: BulkInput, idempotencyKey?: string): Promise<Answer<BulkAnswer>> {
  const owner = await opsOwner(db.prisma, caller, input.merchant_team_id);
  const scope = idempotencyKey
    ? { teamId: caller.teamId, key: idempotencyKey, operation: 'bulkUpsertOpsProducts', body: input }
    : undefined;
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) => once(tx, scope, 200, () => upsertRows(tx, db, owner, input.products)));
}

type Plan =
  | { index: number; row: BulkRow; op: 'create' }
  | { index: number; row: BulkRow; op: 'update'; locked: LockedProduct }
  | { index: number; row: BulkRow; op: 'fail'; kind: ProblemKind; detail: string };

async function upsertRows(tx: TxClient, db: Db, owner: Owner, rows: BulkRow[]): Promise<BulkAnswer> {
  const st = statementsOf(tx, db.provider);
  const locked = await lockBySku(st, owner.team_id, [...new Set(rows.map((r) => r.sku))]);
  // SKUs another product of the team has in another case (unique per team ignoring case: sku.ts),
  // looked up for the SKUs no product has exactly (planRows asks only for those).
  const found = new Set(locked.map((p) => p.sku));
  const owners = await skuOwners(
    tx,
    owner.team_id,
    rows.flatMap((r) => (found.has(r.sku) ? [] : [r.sku])),
  );
  const plans = planRows(rows, locked, owners);
  const creates = plans.filter((p) => p.op === 'create');
  const ids = await insertProducts(
    st,
    owner,
    creates.map((p) => p.row),
  );
  const updates = plans.flatMap((p) => (p.op === 'update' ? [{ locked: p.locked, row: p.row }] : []));
  await updateProducts(st, updates);
  const created = new Map(creates.map((p, i) => [p.index, ids[i]]));
  const results: BulkResult[] = plans.map((p) => {
    if (p.op === 'fail') return { index: p.index, sku: p.row.sku, status: 'failed', id: null, error: { kind: p.kind, detail: p.detail } };
    if (p.op === 'update') return { index: p.index, sku: p.row.sku, status: 'updated', id: p.locked.id, error: null };
    return { index: p.index, sku: p.row.sku, status: 'created', id: created.get(p.index)!, error: null };
  });
  const count = (s: BulkResult['status']) => results.filter((r) => r.status === s).length;
  return { created: count('created'), updated: count('updated'), failed: count('failed'), results };
}

/**
 * What each row does, in request order. Every per-row refusal lives here (the single place a new
 * row check plugs in), so the writes that follow cannot fail for one row.
 */
function planRows(rows: BulkRow[], locked: LockedProduct[], owners: Map<string, SkuOwner>): Plan[] {
  const bySku = new Map<string, LockedProduct[]>();
  for (const p of locked) bySku.set(p.sku, [...(bySku.get(p.sku) ?? []), p]);
  const firstRow = new Map<string, number>();
  return rows.map((row, index): Plan => {
    const fail = (kind: ProblemKind, detail: string): Plan => ({ index, row, op: 'fail', kind, detail });
    const sku = JSON.stringify(row.sku);
    const folded = row.sku.toLowerCase();
    const seen = firstRow.get(folded);
    if (seen !== undefined)
      return fail('validation-failed', `SKU ${sku} is already on products[${seen}] (ignoring case); give each SKU once.`);
    firstRow.set(folded, index);
    const found = bySku.get(row.sku) ?? [];
    if (found.length > 1) return fail('conflict', `SKU ${sku} names ${found.length} products of the team; update them one by one by id.`);
    if (found.length === 1) return { index, row, op: 'update', locked: found[0] };
    const twin = owners.get(folded);
    if (twin) return fail('conflict', skuTaken(row.sku, twin).message);
    if (!row.name || !row.type) return fail('validation-failed', `SKU ${sku} is new: name and type are required to create it.`);
    return { index, row, op: 'create' };
  });
}
