import type { Db, TxClient } from '../../db/types.js';
import { keyScope, once, sweepOldAnswers } from '../idempotency/index.js';
import { billReceipt } from '../charges/index.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { enqueueForParties } from '../events/index.js';
import { transaction } from '../../db/tx.js';
import { applyToLevel, levelFor } from '../inventory/index.js';
import { claimWarehouse } from '../warehouses/index.js';
import type { Caller } from '../products/index.js';
import { returnView } from './view.js';
import * as store from './store.js';
import { restockOf, type RestockLine } from './restock.js';

// Returns (issue 10 item 6). Creating one announces units of a fulfilled order coming back: each
// line reserves its quantity on the order line (returned_quantity) with a conditional UPDATE that
// never lets the returns of a line pass what was fulfilled, so racing returns cannot over-return.
// Receiving puts the units back: SELLABLE ones on hand, DAMAGED ones on hand and set aside
// (unavailable) in a held bin, each into a bin and lot (restock.ts), RETURNED movements naming the return; the receiving charge it bills carries
// return_id. Cancelling a return that received nothing gives the reservation back.

type Actor = Caller & { keyId: string };

export interface ReturnLineRef {
  order_line_item_id?: string;
  sku?: string;
  product_id?: string;
}

export interface ReturnInput {
  order_id: string;
  warehouse_id?: string;
  reference?: string;
  note?: string;
  lines: (ReturnLineRef & { quantity: number; reason?: string })[];
}

export interface ReturnReceipt {
  note?: string;
  /** The bin every line goes back to unless it names its own (restock.ts). */
  location?: string;
  lines: (ReturnLineRef & RestockLine)[];
}

const lineError = (i: number, message: string, kind: 'validation-failed' | 'conflict' = 'validation-failed') =>
  new DomainError(
    kind,
    `lines[${i}]: ${message}`,
    kind === 'validation-failed' ? { errors: [{ path: `lines[${i}]`, message }] } : { line: i },
  );

/** The one line of `candidates` a request line names (by id, else by sku or product id); else a 400/409 naming the line. */
function pick<T extends { id: string; sku: string | null; product_id: string | null }>(
  candidates: T[],
  ref: ReturnLineRef,
  i: number,
  idKey: 'id' | 'order_line_item_id' = 'id',
): T {
  const named = [ref.order_line_item_id, ref.sku, ref.product_id].filter(Boolean).length;
  if (named !== 1) throw lineError(i, 'give exactly one of order_line_item_id, sku and product_id');
  const found = candidates.filter((c) =>
    ref.order_line_item_id
      ? (c as Record<string, unknown>)[idKey] === ref.order_line_item_id
      : ref.sku
        ? c.sku === ref.sku
        : c.product_id === ref.product_id,
  );
  if (found.length !== 1) {
    throw lineError(
      i,
      found.length
        ? `${ref.sku ?? ref.product_id} is on ${found.length} lines; give order_line_item_id`
        : `${ref.order_line_item_id ?? ref.sku ?? ref.product_id} is not on it`,
      'conflict',
    );
  }
  return found[0];
}

export async function createReturn(db: Db, caller: Actor, input: ReturnInput, key?: string) {
  const scope = keyScope(caller.teamId, key, 'createReturn', input);
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) =>
    once(tx, scope, 201, async () => {
      const warehouse = input.warehouse_id ? await claimWarehouse(tx, input.warehouse_id, caller.teamId) : null;
      const order = await store.findOrderWithCoreLines(tx, caller.teamId, input.order_id);
      if (!order) throw notFound('Order', input.order_id);
      const warehouseId = warehouse?.id ?? (await shippedFrom(tx, order.id));
      const lines = input.lines.map((l, i) => pick(order.line_items, l, i));
      const seen = new Set<string>();
      for (const [i, line] of lines.entries()) {
        if (seen.has(line.id)) throw lineError(i, 'this order line is already on the return; give each line once');
        if (!line.product_id) throw lineError(i, `${line.sku ?? line.id} has no product, so it cannot come back to stock`, 'conflict');
        seen.add(line.id);
        const q = input.lines[i].quantity;
        // The guard in the WHERE: returns of a line never pass what was fulfilled of it.
        const n = await store.reserveReturnedQuantity(tx, line.id, q);
        if (n !== 1) {
          const fresh = await store.findOrderLine(tx, line.id);
          const left = fresh.total_quantity - fresh.removed_quantity - fresh.remaining_quantity - fresh.returned_quantity;
          throw lineError(i, `only ${Math.max(0, left)} of ${line.sku ?? line.id} were fulfilled and not yet returned`, 'conflict');
        }
      }
      const delegation = await store.findDelegationId(tx, order.merchant_team_id, caller.teamId);
      const r = await store.insertReturn(
        tx,
        {
          team_id: caller.teamId,
          order_id: order.id,
          merchant_team_id: order.merchant_team_id,
          fulfillment_delegation_id: delegation?.id ?? null,
          warehouse_id: warehouseId,
          reference: input.reference ?? null,
          note: input.note ?? null,
          created_by_key_id: caller.keyId,
        },
        lines.map((l, i) => ({
          order_line_item_id: l.id,
          product_id: l.product_id!,
          sku: l.sku,
          quantity: input.lines[i].quantity,
          reason: input.lines[i].reason ?? null,
        })),
      );
      const view = returnView(r);
      await enqueueForParties(tx, r, 'return.created', view);
      return view;
    }),
  );
}

/** Where the order's units were shipped from: the warehouse of its latest fulfilled fulfillment order. */
async function shippedFrom(tx: TxClient, orderId: string): Promise<string> {
  const fo = await store.findLatestFulfilledWarehouse(tx, orderId);
  if (!fo?.warehouse_id)
    throw conflict(`Order ${orderId} has nothing fulfilled to return; pass warehouse_id if its units come back anyway.`);
  return fo.warehouse_id;
}

async function claim(tx: TxClient, teamId: string, id: string, verb: string) {
  const { count } = await store.touchOpenReturn(tx, teamId, id, new Date());
  const r = await store.findTeamReturn(tx, teamId, id);
  if (!r) throw notFound('Return', id);
  if (count !== 1) throw conflict(`Return ${id} is ${r.status}; it cannot be ${verb}.`, { status: r.status });
  return r;
}

export async function receiveReturn(db: Db, caller: Actor, id: string, input: ReturnReceipt, key?: string) {
  const scope = keyScope(caller.teamId, key, 'receiveReturn', { id, ...input });
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) =>
    once(tx, scope, 200, async () => {
      const r = await claim(tx, caller.teamId, id, 'received');
      const now = new Date();
      let units = 0;
      const picked = input.lines.map((ref, i) => pick(r.lines, ref, i, 'order_line_item_id'));
      const restock = await restockOf(tx, r, input, picked);
      for (const [i, ref] of input.lines.entries()) {
        const line = picked[i];
        const q = ref.quantity;
        const damaged = ref.condition === 'DAMAGED';
        const { count } = await store.receiveReturnLine(tx, line, q, damaged);
        if (count !== 1) {
          const fresh = await store.findReturnLine(tx, line.id);
          throw lineError(
            i,
            `receiving ${q} of ${line.sku ?? line.product_id} passes what the return still expects (${fresh.quantity - fresh.quantity_received})`,
            'conflict',
          );
        }
        const level = await levelFor(tx, line.product_id, r.warehouse_id);
        const ok = await applyToLevel(
          tx,
          level,
          { on_hand: q, unavailable: damaged ? q : 0 },
          {
            kind: 'RETURNED',
            reason: damaged ? 'DAMAGED' : line.reason,
            note: input.note ?? null,
            reference_type: 'return',
            reference_id: r.id,
            actor_key_id: caller.keyId,
            lot_code: restock[i].lot_code,
            expiration_date: restock[i].expiration_date,
            placement: restock[i].placement,
          },
        );
        if (!ok) throw lineError(i, 'the inventory level could not take the units', 'conflict');
        units += q;
      }
      const lines = await store.findReturnLines(tx, r.id);
      const updated = await store.updateReturn(tx, r.id, {
        status: lines.every((l) => l.quantity_received >= l.quantity) ? 'RECEIVED' : 'PARTIALLY_RECEIVED',
        received_at: r.received_at ?? now,
      });
      const charge = r.fulfillment_delegation_id
        ? await billReceipt(tx, r.team_id, r.fulfillment_delegation_id, {
            name: `Return ${r.reference ?? r.id}`,
            quantity: units,
            return_id: r.id,
            lines: new Set(lines.filter((l) => l.quantity_received > 0).map((l) => l.product_id)).size,
            warehouse_id: r.warehouse_id,
            warehouse_name: await store.findWarehouseName(tx, r.warehouse_id),
            received_total: lines.reduce((n, l) => n + l.quantity_received, 0),
          })
        : null;
      const view = { ...returnView(updated), charge_id: charge?.id ?? null };
      await enqueueForParties(tx, r, 'return.received', view);
      return view;
    }),
  );
}

export async function cancelReturn(db: Db, caller: Actor, id: string) {
  return transaction(db, async (tx) => {
    const r = await claim(tx, caller.teamId, id, 'cancelled');
    if (r.lines.some((l) => l.quantity_received > 0))
      throw conflict(`Return ${id} has received units; it cannot be cancelled.`, { status: r.status });
    for (const l of r.lines) {
      await store.releaseReturnedQuantity(tx, l.order_line_item_id, l.quantity);
    }
    const updated = await store.updateReturn(tx, r.id, { status: 'CANCELLED', cancelled_at: new Date() });
    const view = returnView(updated);
    await enqueueForParties(tx, r, 'return.cancelled', view);
    return view;
  });
}
