import type { Db, Prisma, TxClient } from '../../db/types.js';
import { keyScope, once, sweepOldAnswers } from '../idempotency/index.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { refusalNames } from '../names/index.js';
import { enqueueForParties } from '../events/index.js';
import { ensureDamagedLocation } from '../locations/index.js';
import { transaction } from '../../db/tx.js';
import { pageArgs, toPage } from '../pagination.js';
import { reachableTeamIds, type Caller } from '../products/index.js';
import { applyToLevel } from './ledger.js';
import { lockedLevelsFor } from './ledger-bulk.js';
import { warehouseNames } from './products.js';
import { claimWarehouse } from '../warehouses/index.js';
import { resolveProducts, uniqueProducts, type ProductRef } from './products.js';
import { findLevel } from './store/levels.js';
import {
  findTeamTransfer,
  findTransferLine,
  findTransferLines,
  findTransferPage,
  insertTransfer,
  receiveTransferLine,
  touchOpenTransfer,
  updateTransfer,
} from './store/transfers.js';

// Transfers between two warehouses of the team (issue 10 item 5). Shipping takes the units off
// the source's on_hand (only sellable units: never what is committed or set aside) and counts
// them as on_order at the destination (TRANSFER_OUT movements); receiving moves them from on_order
// to on_hand there, partially and repeatedly, DAMAGED ones set aside (TRANSFER_IN); cancelling
// returns what is still in transit to the source. Each step is one transaction; the transfer row
// is claimed first (compare-and-set on its status) so receive and cancel serialise.

type Actor = Caller & { keyId: string };
type Row = Prisma.InventoryTransferGetPayload<{ include: { lines: true } }>;
const OPEN = ['IN_TRANSIT', 'PARTIALLY_RECEIVED'] as const;

export interface TransferInput {
  from_warehouse_id: string;
  to_warehouse_id: string;
  reference?: string;
  note?: string;
  lines: (ProductRef & { quantity: number })[];
}

export interface TransferReceipt {
  note?: string;
  lines: (ProductRef & { quantity: number; condition?: 'SELLABLE' | 'DAMAGED' })[];
}

const openOf = (l: { quantity: number; quantity_received: number }) => Math.max(0, l.quantity - l.quantity_received);

export function transferView(t: Row, names: Map<string, string>) {
  const lines = [...t.lines]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((l) => ({
      id: l.id,
      product_id: l.product_id,
      sku: l.sku,
      quantity: l.quantity,
      quantity_received: l.quantity_received,
      quantity_damaged: l.quantity_damaged,
      quantity_in_transit: t.status === 'CANCELLED' ? 0 : openOf(l),
    }));
  return {
    id: t.id,
    status: t.status,
    from_warehouse_id: t.from_warehouse_id,
    from_warehouse_name: names.get(t.from_warehouse_id) ?? null,
    to_warehouse_id: t.to_warehouse_id,
    to_warehouse_name: names.get(t.to_warehouse_id) ?? null,
    reference: t.reference,
    note: t.note,
    created_by_key_id: t.created_by_key_id,
    received_at: t.received_at,
    cancelled_at: t.cancelled_at,
    created_at: t.created_at,
    updated_at: t.updated_at,
    total_quantity: lines.reduce((n, l) => n + l.quantity, 0),
    total_received: lines.reduce((n, l) => n + l.quantity_received, 0),
    lines,
  };
}

async function announce(
  tx: TxClient,
  t: Row,
  kind: 'inventory.transfer_shipped' | 'inventory.transfer_received' | 'inventory.transfer_cancelled',
) {
  const view = transferView(t, await warehouseNames(tx, [t.from_warehouse_id, t.to_warehouse_id]));
  await enqueueForParties(tx, t, kind, view);
  return view;
}

export async function createTransfer(db: Db, caller: Actor, input: TransferInput, key?: string) {
  if (input.from_warehouse_id === input.to_warehouse_id) {
    throw new DomainError('validation-failed', 'to_warehouse_id: must differ from from_warehouse_id.', {
      errors: [{ path: 'to_warehouse_id', message: 'must differ from from_warehouse_id' }],
    });
  }
  const scope = keyScope(caller.teamId, key, 'createTransfer', input);
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) =>
    once(tx, scope, 201, async () => {
      // Both warehouses claimed in id order (no waiting in a cycle with a transfer the other way).
      for (const id of [input.from_warehouse_id, input.to_warehouse_id].sort()) await claimWarehouse(tx, id, caller.teamId);
      const products = await resolveProducts(tx, await reachableTeamIds(tx, caller), input.lines);
      uniqueProducts(products);
      const t = await insertTransfer(
        tx,
        {
          team_id: caller.teamId,
          from_warehouse_id: input.from_warehouse_id,
          to_warehouse_id: input.to_warehouse_id,
          reference: input.reference ?? null,
          note: input.note ?? null,
          created_by_key_id: caller.keyId,
        },
        products.map((p, i) => ({ product_id: p.id, sku: p.sku, quantity: input.lines[i].quantity })),
      );
      const info = {
        kind: 'TRANSFER_OUT' as const,
        note: input.note ?? null,
        reference_type: 'transfer',
        reference_id: t.id,
        actor_key_id: caller.keyId,
      };
      const ids = products.map((p) => p.id);
      const levelOf = await lockedLevelsFor(tx, db.provider, [
        { warehouseId: input.from_warehouse_id, productIds: ids },
        { warehouseId: input.to_warehouse_id, productIds: ids },
      ]);
      for (const [i, p] of products.entries()) {
        const q = input.lines[i].quantity;
        const from = { ...levelOf(input.from_warehouse_id, p.id), sku: p.sku };
        if (!(await applyToLevel(tx, from, { on_hand: -q }, info, { sellable: true }))) {
          const l = await findLevel(tx, from.id);
          const n = await refusalNames(tx, { products: [p.id], warehouses: [input.from_warehouse_id] });
          throw conflict(
            `lines[${i}]: ${n.warehouse(input.from_warehouse_id)} has only ${Math.max(0, l.on_hand - l.committed - l.unavailable)} of ${n.product(p.id)} available to ship (on_hand ${l.on_hand}, committed ${l.committed}, unavailable ${l.unavailable}).`,
            { line: i },
          );
        }
        await applyToLevel(tx, { ...levelOf(input.to_warehouse_id, p.id), sku: p.sku }, { on_order: q }, info);
      }
      return announce(tx, t, 'inventory.transfer_shipped');
    }),
  );
}

/** The caller's transfer, claimed while still in transit (its row lock serialises receive and cancel). */
async function claim(tx: TxClient, teamId: string, id: string, verb: string) {
  const { count } = await touchOpenTransfer(tx, teamId, id, { in: [...OPEN] }, new Date());
  const t = await findTeamTransfer(tx, teamId, id);
  if (!t) throw notFound('Transfer', id);
  if (count !== 1) throw conflict(`Transfer ${id} is ${t.status}; it cannot be ${verb}.`, { status: t.status });
  return t;
}

export async function receiveTransfer(db: Db, caller: Actor, id: string, input: TransferReceipt, key?: string) {
  const scope = keyScope(caller.teamId, key, 'receiveTransfer', { id, ...input });
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) =>
    once(tx, scope, 200, async () => {
      const t = await claim(tx, caller.teamId, id, 'received');
      const products = await resolveProducts(tx, await reachableTeamIds(tx, caller), input.lines);
      const now = new Date();
      const levelOf = await lockedLevelsFor(tx, db.provider, [{ warehouseId: t.to_warehouse_id, productIds: products.map((p) => p.id) }]);
      for (const [i, line] of input.lines.entries()) {
        const tl = t.lines.find((l) => l.product_id === products[i].id);
        if (!tl) throw conflict(`lines[${i}]: ${products[i].sku ?? products[i].id} is not on transfer ${t.id}.`, { line: i });
        const damaged = line.condition === 'DAMAGED' ? line.quantity : 0;
        const { count } = await receiveTransferLine(tx, tl, line.quantity, damaged);
        if (count !== 1) {
          const fresh = await findTransferLine(tx, tl.id);
          throw conflict(
            `lines[${i}]: receiving ${line.quantity} of ${tl.sku ?? tl.product_id} passes what is in transit (${openOf(fresh)}).`,
            { line: i, quantity_in_transit: openOf(fresh) },
          );
        }
        const level = levelOf(t.to_warehouse_id, tl.product_id);
        const ok = await applyToLevel(
          tx,
          level,
          { on_order: -line.quantity, on_hand: line.quantity, unavailable: damaged },
          {
            kind: 'TRANSFER_IN',
            reason: damaged ? 'DAMAGED' : null,
            note: input.note ?? null,
            reference_type: 'transfer',
            reference_id: t.id,
            actor_key_id: caller.keyId,
            // Damaged units land in a DAMAGED location, out of every pick (issue 34).
            ...(damaged ? { placement: { location_id: (await ensureDamagedLocation(tx, t.to_warehouse_id)).id } } : {}),
          },
        );
        if (!ok) throw conflict(`lines[${i}]: the destination level of ${tl.sku ?? tl.product_id} could not take the receipt.`);
      }
      const lines = await findTransferLines(tx, t.id);
      const updated = await updateTransfer(tx, t.id, {
        status: lines.every((l) => l.quantity_received >= l.quantity) ? 'RECEIVED' : 'PARTIALLY_RECEIVED',
        received_at: t.received_at ?? now,
      });
      return announce(tx, updated, 'inventory.transfer_received');
    }),
  );
}

export async function cancelTransfer(db: Db, caller: Actor, id: string) {
  return transaction(db, async (tx) => {
    const t = await claim(tx, caller.teamId, id, 'cancelled');
    const info = { reason: 'CANCELLED', reference_type: 'transfer', reference_id: t.id, actor_key_id: caller.keyId };
    const productIds = t.lines.filter((tl) => openOf(tl)).map((tl) => tl.product_id);
    const levelOf = await lockedLevelsFor(tx, db.provider, [
      { warehouseId: t.from_warehouse_id, productIds },
      { warehouseId: t.to_warehouse_id, productIds },
    ]);
    for (const tl of t.lines) {
      const open = openOf(tl);
      if (!open) continue;
      const to = levelOf(t.to_warehouse_id, tl.product_id);
      if (!(await applyToLevel(tx, to, { on_order: -open }, { ...info, kind: 'RELEASED' }))) {
        throw conflict(`On order of ${tl.sku ?? tl.product_id} at the destination is below what transfer ${id} still carries.`);
      }
      await applyToLevel(tx, levelOf(t.from_warehouse_id, tl.product_id), { on_hand: open }, { ...info, kind: 'TRANSFER_IN' });
    }
    const updated = await updateTransfer(tx, t.id, { status: 'CANCELLED', cancelled_at: new Date() });
    return announce(tx, updated, 'inventory.transfer_cancelled');
  });
}

export interface TransferQuery {
  page: number;
  limit: number;
  cursor?: string;
  status?: string[];
  warehouse_id?: string[];
}

const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

export async function listTransfers(db: Db, teamId: string, q: TransferQuery) {
  const where: Prisma.InventoryTransferWhereInput = { team_id: teamId };
  if (q.status) where.status = { in: q.status as never };
  if (q.warehouse_id) where.OR = [{ from_warehouse_id: { in: q.warehouse_id } }, { to_warehouse_id: { in: q.warehouse_id } }];
  const rows = await findTransferPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  const names = await warehouseNames(
    db.prisma,
    page.data.flatMap((t) => [t.from_warehouse_id, t.to_warehouse_id]),
  );
  return { meta: page.meta, data: page.data.map((t) => transferView(t, names)) };
}

export async function getTransfer(db: Db, teamId: string, id: string) {
  const t = await findTeamTransfer(db.prisma, teamId, id);
  if (!t) throw notFound('Transfer', id);
  return transferView(t, await warehouseNames(db.prisma, [t.from_warehouse_id, t.to_warehouse_id]));
}
