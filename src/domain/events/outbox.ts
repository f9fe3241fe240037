import type { TxClient } from '../../db/types.js';

// Transactional outbox: an event is written in the same transaction as the change it
// describes, so it exists if and only if the change committed. A worker delivers it later
// (webhooks, sales-channel tracking pushes) with retries: src/server/workers/outbox.ts.

/** Every event kind; webhook endpoints subscribe to a list of these, or to '*'. */
export const EVENT_KINDS = [
  'tracking.push', // sales-channel tracking update after a fulfil; payload names the order (TrackingPushPayload)
  'order.created',
  'order.priority_changed',
  'order.updated',
  'order.cancelled',
  'order.hold_placed',
  'order.hold_released',
  'order.backorder_allocated',
  'fulfillment_order.cancelled',
  'fulfillment_order.moved',
  'fulfillment_order.split',
  'fulfillment_order.locked',
  'package.created',
  'package.labelled',
  'package.label_voided',
  'shipment.status_changed', // a carrier platform's tracking moved a label (both teams; sales channels may push it)
  'shipping_label.refund_updated',
  'package.fulfilled',
  'scan_form.created',
  'shipping_label.corrected',
  'file.processed',
  'charge.created',
  'charge.updated',
  'inventory.adjusted',
  'purchase_order.created',
  'purchase_order.received',
  'purchase_order.closed',
  'purchase_order.cancelled',
  'inventory.transfer_shipped',
  'inventory.transfer_received',
  'inventory.transfer_cancelled',
  'return.created',
  'return.received',
  'return.cancelled',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

export const isEventKind = (value: string): value is EventKind => (EVENT_KINDS as readonly string[]).includes(value);

/**
 * What the worker needs from a 'tracking.push' payload: the order, as `order: { id }` (what the
 * fulfil transaction writes) or a flat `order_id`; its shop's platform picks the sales-channel
 * adapter. Other members are passed to the adapter as they are.
 */
export type TrackingPushPayload = ({ order: { id: string; [key: string]: unknown } } | { order_id: string }) & {
  [key: string]: unknown;
};

export async function enqueueEvent(tx: TxClient, teamId: string, kind: EventKind, payload: Record<string, unknown>) {
  return tx.outboxEvent.create({ data: { team_id: teamId, kind, payload: payload as never } });
}

/** Several events in one INSERT (a write that announces more than one thing). */
export async function enqueueEvents(tx: TxClient, events: Array<{ teamId: string; kind: EventKind; payload: Record<string, unknown> }>) {
  await tx.outboxEvent.createMany({ data: events.map((e) => ({ team_id: e.teamId, kind: e.kind, payload: e.payload as never })) });
}

/**
 * One event to the fulfiller team and, when there is one and it differs, the merchant team
 * (purchase orders, transfers, returns); the payload as JSON (dates as ISO strings).
 */
export async function enqueueForParties(tx: TxClient, parties: { team_id: string; merchant_team_id?: string | null }, kind: EventKind, payload: unknown) {
  const body = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
  await enqueueEvent(tx, parties.team_id, kind, body);
  if (parties.merchant_team_id && parties.merchant_team_id !== parties.team_id) await enqueueEvent(tx, parties.merchant_team_id, kind, body);
}
