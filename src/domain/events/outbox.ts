import { boundStatements } from '../../db/statements.js';
import { createEvent, createEvents, insertEvents } from './store.js';
import type { TxClient } from '../../db/types.js';

// Transactional outbox: an event is written in the same transaction as the change it
// describes, so it exists if and only if the change committed. A worker delivers it later
// (webhooks, sales-channel tracking pushes) with retries: src/server/workers/outbox.ts.

import { EVENT_KINDS, type EventKind } from '../../contract/enums.js';

/** Every event kind (src/contract/enums.ts); webhook endpoints subscribe to a list of these, or to '*'. */
export { EVENT_KINDS, type EventKind };

export const isEventKind = (value: string): value is EventKind => (EVENT_KINDS as readonly string[]).includes(value);

/**
 * What the worker needs from a 'tracking.push' payload: the order, as `order: { id }` (what the
 * fulfill transaction writes) or a flat `order_id`; its shop's platform picks the sales-channel
 * adapter. Other members are passed to the adapter as they are.
 */
export type TrackingPushPayload = ({ order: { id: string; [key: string]: unknown } } | { order_id: string }) & {
  [key: string]: unknown;
};

export async function enqueueEvent(tx: TxClient, teamId: string, kind: EventKind, payload: Record<string, unknown>) {
  const st = boundStatements(tx);
  if (st) return (await insertEvents(st, [{ teamId, kind, payload }]))[0];
  return createEvent(tx, { team_id: teamId, kind, payload: payload as never });
}

/**
 * Several events in one INSERT (a write that announces more than one thing). `text`, when given,
 * is the payload already as JSON (exactly JSON.stringify(payload)): it is written as it is.
 * `atCommit`: on PostgreSQL the events are written with the COMMIT, in its round trip (a write
 * that holds hot row locks until then and reads no event back: the fulfill).
 */
export async function enqueueEvents(
  tx: TxClient,
  events: Array<{ teamId: string; kind: EventKind; payload: Record<string, unknown>; text?: string }>,
  opts: { atCommit?: boolean } = {},
) {
  const st = boundStatements(tx);
  if (st) await insertEvents(st, events, opts);
  else
    await createEvents(
      tx,
      events.map((e) => ({ team_id: e.teamId, kind: e.kind, payload: e.payload as never })),
    );
}

/**
 * One event to the fulfiller team and, when there is one and it differs, the merchant team
 * (purchase orders, transfers, returns); the payload as JSON (dates as ISO strings).
 */
export async function enqueueForParties(
  tx: TxClient,
  parties: { team_id: string; merchant_team_id?: string | null },
  kind: EventKind,
  payload: unknown,
) {
  const body = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
  await enqueueEvent(tx, parties.team_id, kind, body);
  if (parties.merchant_team_id && parties.merchant_team_id !== parties.team_id)
    await enqueueEvent(tx, parties.merchant_team_id, kind, body);
}
