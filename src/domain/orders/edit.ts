import type { Db, TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { activeLock, lockHeld } from './fo-lock.js';
import { transaction } from '../../db/tx.js';
import { addressHash, verifyAddress, type Address } from './address.js';
import { ALLOCATABLE_STATUSES, orderLabel, type OrderConfig } from '../../contract/orders-enums.js';
import { applyLineChanges, hasLineChanges, loadAdded, type LineChanges } from './edit-lines.js';
import { getOrder } from './orders.js';
import { setOrderTags } from './tags.js';
import { personSelection, type SelectionEdit } from './selection.js';
import { noteAuditBefore } from '../audit/index.js';
import {
  countOrderPackages,
  findCoreLineQuantities,
  findEditedOrder,
  findLockedFulfillmentOrders,
  findOrderMerchant,
  touchFulfillmentOrders,
  updateOpenOrder,
} from './store/edits.js';

// PATCH /v1/ops/orders/{id}: the shipping address (re-verified when the order's config asks for it,
// refused while lock_address is set), shipping method, note, tags and lock_address of an open order.
// Packages copy the address when they are made, so an edit is refused while anyone holds a lock on
// one of the order's fulfillment orders (409 naming the holder). One transaction: its first
// statement touches the order's open fulfillment orders (a write: SQLite's write lock; PostgreSQL's
// row locks, which a lock's compare-and-set takes too), so a lock cannot slip in between the check
// and the change. Line items (add, set quantity, remove) are changed in the same transaction
// (edit-lines.ts), stock re-committed through the ledger. Carrier-selection fields set here are a
// person's choice (selection.ts): automation rules never overwrite them.

/** Line changes, the address and notes, and the carrier selection (selection.ts). */
export interface OrderEdit extends LineChanges, SelectionEdit {
  shipping_address?: Address;
  shipping_method?: string | null;
  note?: string | null;
  tags?: string[];
  lock_address?: boolean;
}

const LINE_KEYS = ['add_line_items', 'update_line_items', 'remove_line_items'] as const;

export interface EditOptions {
  /** A shop's edit (channels/edits.ts): refused (409, packing_started) once a package exists or a unit shipped. */
  untilPacked?: boolean;
}

export async function editOrder(db: Db, teamId: string, orderId: string, edit: OrderEdit, opts: EditOptions = {}) {
  const owner = await findOrderMerchant(db.prisma, teamId, orderId);
  if (!owner) throw notFound('Order', orderId);
  // Products of added lines are looked up before the transaction (a 400 names every unknown one).
  const added = await loadAdded(db, owner.merchant_team_id, edit.add_line_items);
  await transaction(db, async (tx) => {
    const now = new Date();
    await touchFulfillmentOrders(tx, teamId, orderId, ['PENDING', 'ACCEPTED', 'IN_PROGRESS'], now);
    const order = await findEditedOrder(tx, teamId, orderId);
    if (order) noteAuditBefore(order, { key: order.order_number }); // the audit record's "from" (docs/audit.md)
    if (!order) throw notFound('Order', orderId);
    if (!ALLOCATABLE_STATUSES.includes(order.status)) {
      throw conflict(`Order ${orderLabel(order.order_number)} is ${order.status}; only open orders can be edited.`, {
        status: order.status,
      });
    }
    for (const fo of await findLockedFulfillmentOrders(tx, orderId)) {
      const lock = activeLock(fo, now);
      if (lock) throw await lockHeld(tx, fo.id, lock);
    }
    if (opts.untilPacked) await refuseIfPacked(tx, orderId, orderLabel(order.order_number));
    const data: Record<string, unknown> = { updated_at: now };
    if (edit.shipping_address) {
      // lock_address: the address was confirmed and must not change, unless this edit also unlocks it.
      if (order.lock_address && edit.lock_address !== false) {
        throw conflict(
          `Order ${orderLabel(order.order_number)} has lock_address set: its shipping address cannot be changed (send lock_address false with it to unlock).`,
        );
      }
      const config = (order.config ?? {}) as Partial<OrderConfig>;
      const verification = config.address_verification_enabled === false ? null : verifyAddress(edit.shipping_address);
      Object.assign(data, {
        shipping_address: edit.shipping_address,
        address_hash: addressHash(edit.shipping_address),
        address_verified: verification?.verified ?? false,
        address_residential: verification?.residential ?? 'UNKNOWN',
        address_verified_at: verification?.verified ? now : null,
        address_verification_response: (verification ?? undefined) as never,
      });
    }
    for (const key of ['shipping_method', 'note', 'tags', 'lock_address'] as const) {
      if (edit[key] !== undefined) data[key] = edit[key];
    }
    const selection = await personSelection(tx, teamId, order.carrier_selection, edit);
    if (selection) data.carrier_selection = selection;
    const changed = Object.keys(edit).filter((k) => edit[k as keyof OrderEdit] !== undefined && !LINE_KEYS.includes(k as never));
    // Lines before the order row (the area's lock order: lines, then levels, then the order).
    const units = hasLineChanges(edit)
      ? await applyLineChanges(tx, { ...order, order_number: orderLabel(order.order_number) }, edit, added)
      : null;
    if (units?.complete) Object.assign(data, { status: 'CLOSED', fulfillment_status: 'FULFILLED', closed_at: now });
    if ((await updateOpenOrder(tx, orderId, data)) !== 1)
      throw conflict(`Order ${orderLabel(order.order_number)} changed while it was being edited; try again.`);
    if (edit.tags !== undefined) await setOrderTags(tx, order, edit.tags);
    if (units) changed.push('line_items');
    await enqueueEvent(tx, teamId, 'order.updated', {
      order_id: orderId,
      order_number: order.order_number,
      changed,
      ...(units ? { units_added: units.added, units_removed: units.removed } : {}),
    });
  });
  return getOrder(db, teamId, orderId);
}

/** Inside the edit's transaction (after the claim on the fulfillment orders): packing has started. */
async function refuseIfPacked(tx: TxClient, orderId: string, label: string) {
  const packed = await countOrderPackages(tx, orderId);
  const cores = await findCoreLineQuantities(tx, orderId);
  const shipped = cores.some((l) => l.total_quantity - l.removed_quantity > l.remaining_quantity);
  if (packed || shipped)
    throw conflict(`Order ${label}: packing has started (${packed} package(s)); the change needs a person.`, { packing_started: true });
}
