import { randomUUID } from 'node:crypto';
import type { Charge, Db, TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { conflict, notFound } from '../errors.js';
import { billEvents, delegationOf, type Billable, type Delegation } from './billing.js';
import { findChargeByKey, findTeamPurchaseOrder, findTeamWarehouseName } from './store/charges.js';

// The billable events outside the fulfill (docs/billing.md), each billed by the delegation's
// versioned rate card inside the event's own transaction, once per billing key.

/** The warehouse an event happened in: its id for the card's conditions, both for the charge (spec 2.8). */
interface WarehouseRef {
  warehouse_id: string | null;
  warehouse_name?: string | null;
}
const warehouseLinks = (r: WarehouseRef) => ({ warehouse_id: r.warehouse_id, warehouse_name: r.warehouse_name ?? null });

/** A purchase-order receipt: RECEIVING for its units (per receipt), RECEIVING_PO once per order. */
export async function billPurchaseOrderReceipt(
  tx: TxClient,
  d: Delegation,
  r: { receipt_id: string; purchase_order_id: string; name: string; units: number; lines: number } & WarehouseRef,
  at: Date,
): Promise<Charge[]> {
  const base = { merchant_team_id: d.merchant_team_id, warehouse_id: r.warehouse_id, units: r.units, lines: r.lines };
  const links = { purchase_order_id: r.purchase_order_id, ...warehouseLinks(r) };
  return billEvents(
    tx,
    d,
    [
      { key: `RECEIVING:receipt:${r.receipt_id}`, event: { ...base, event: 'RECEIVING' }, name: r.name, links },
      { key: `RECEIVING_PO:${r.purchase_order_id}`, event: { ...base, event: 'RECEIVING_PO' }, name: `${r.name} (purchase order)`, links },
    ],
    at,
  );
}

/**
 * A return's units received: RETURN (returns processing). The key names the return and how many
 * units it had received after this receipt, which only grows, so each receipt is its own event.
 */
export async function billReturnReceipt(
  tx: TxClient,
  d: Delegation,
  r: { return_id: string; name: string; units: number; lines: number; received_total: number } & WarehouseRef,
  at: Date,
): Promise<Charge[]> {
  const event = {
    event: 'RETURN' as const,
    merchant_team_id: d.merchant_team_id,
    warehouse_id: r.warehouse_id,
    units: r.units,
    lines: r.lines,
  };
  const links = { return_id: r.return_id, ...warehouseLinks(r) };
  return billEvents(tx, d, [{ key: `RETURN:${r.return_id}:${r.received_total}`, event, name: r.name, links }], at);
}

/** A work order (kitting): its built units and component lines, once per work order. */
export async function billWorkOrder(
  tx: TxClient,
  w: {
    id: string;
    merchant_team_id: string;
    fulfiller_team_id: string;
    warehouse_id: string;
    name: string;
    units: number;
    lines: number;
  } & WarehouseRef,
  at: Date,
): Promise<Charge[]> {
  const d = await delegationOf(tx, w.merchant_team_id, w.fulfiller_team_id);
  const event = {
    event: 'KITTING' as const,
    merchant_team_id: w.merchant_team_id,
    warehouse_id: w.warehouse_id,
    units: w.units,
    lines: w.lines,
  };
  const links = { work_order_id: w.id, ...warehouseLinks(w) };
  return billEvents(tx, d, [{ key: `KITTING:work_order:${w.id}`, event, name: w.name, links }], at);
}

export interface AdHocInput {
  merchant_team_id: string;
  name: string;
  note: string;
  event?: 'AD_HOC' | 'RECEIVING_HOURS';
  quantity: number;
  unit_amount?: number;
  purchase_order_id?: string;
  warehouse_id?: string;
  reference?: string;
}

/**
 * An ad-hoc charge (special projects) or receiving hours, posted by a person with a note: priced
 * by the card's AD_HOC / RECEIVING_HOURS fee, or at the unit_amount given. With a `reference` the
 * post is idempotent: the same reference answers the charge it made.
 */
export async function addAdHocCharge(db: Db, teamId: string, input: AdHocInput, now: Date): Promise<{ charge: Charge; created: boolean }> {
  const event = input.event ?? 'AD_HOC';
  const key = input.reference ? `${event}:ref:${teamId}:${input.merchant_team_id}:${input.reference}` : `${event}:${randomUUID()}`;
  return transaction(db, async (tx) => {
    const d = await delegationOf(tx, input.merchant_team_id, teamId);
    if (!d) throw notFound('Merchant team delegated to this team', input.merchant_team_id);
    if (!d.rate_card_id) throw conflict(`The delegation ${d.id} has no versioned rate card; assign one with fos rate-cards assign.`);
    const warehouse = input.warehouse_id ? await findTeamWarehouseName(tx, teamId, input.warehouse_id) : null;
    if (input.warehouse_id && !warehouse) throw notFound('Warehouse', input.warehouse_id);
    if (input.purchase_order_id && !(await findTeamPurchaseOrder(tx, teamId, input.purchase_order_id))) {
      throw notFound('Purchase order', input.purchase_order_id);
    }
    const b: Billable = {
      key,
      event: {
        event,
        merchant_team_id: d.merchant_team_id,
        warehouse_id: input.warehouse_id ?? null,
        quantity: input.quantity,
        units: input.quantity,
      },
      name: input.name,
      description: input.note,
      links: {
        purchase_order_id: input.purchase_order_id ?? null,
        ...warehouseLinks({ warehouse_id: input.warehouse_id ?? null, warehouse_name: warehouse?.name }),
      },
      ...(input.unit_amount !== undefined ? { unit_amount: input.unit_amount } : {}),
    };
    const [charge] = await billEvents(tx, d, [b], now);
    if (charge) return { charge, created: true };
    const earlier = await findChargeByKey(tx, key);
    if (earlier) return { charge: earlier, created: false };
    throw conflict(`No ${event} fee of the rate card applies and no unit_amount was given; nothing was charged.`);
  });
}
