import type { Db, TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { conflict, notFound } from '../errors.js';
import { namedFulfillmentOrder } from '../names/index.js';
import { claimForSessionRow } from './store/sql.js';
import * as sessions from './store/sessions.js';

// Creating a picking session (issue 28): from explicit fulfillment orders, from a wave rule, or
// empty. A wave takes the team's open ACCEPTED fulfillment orders of one warehouse that are in no
// session, not on hold and not locked, priority first (CRITICAL, HIGH, NORMAL, LOW) then oldest,
// optionally only those of a carrier or shipping method, or with a single unit. Every fulfillment
// order that joins gets a tote of its own (created, named after the session) unless it has one.
//
// Race-free: each fulfillment order is claimed by a compare-and-set UPDATE inside the transaction
// (`picking_session_id IS NULL`). Two waves created at once both read the same candidates; the
// second one's UPDATE waits on the row (PostgreSQL) or the write lock (SQLite), then matches
// nothing, so it moves on to the next candidate and never takes an order the first one took.

export interface WaveRule {
  warehouse_id: string;
  max_orders: number;
  carrier_id?: string;
  shipping_method?: string;
  single_item_only?: boolean;
}

export interface CreateSessionInput {
  name?: string;
  fulfillment_order_ids?: string[];
  wave?: WaveRule;
}

/** How many candidates one wave reads at most (the filters on carrier and units run on them). */
const CANDIDATES = 2000;

const carrierOf = (sel: unknown) =>
  sel && typeof sel === 'object' ? ((sel as Record<string, unknown>).carrier_id as string | undefined) : undefined;

/** The wave's candidates, best first: priority, then oldest. */
async function waveCandidates(tx: TxClient, teamId: string, rule: WaveRule): Promise<string[]> {
  const now = new Date();
  const rows = await sessions.findWaveCandidates(tx, teamId, rule.warehouse_id, rule.shipping_method, now, CANDIDATES);
  return rows
    .filter((r) => !rule.carrier_id || carrierOf(r.order.carrier_selection) === rule.carrier_id)
    .filter((r) => !rule.single_item_only || r.line_items.reduce((n, l) => n + l.remaining_quantity, 0) === 1)
    .map((r) => r.id);
}

/**
 * Compare-and-set: the fulfillment order joins the session only if it is still free (and open,
 * not on hold); then it gets a tote of its own unless it has one. False when it was not free.
 */
async function claim(tx: TxClient, teamId: string, session: { id: string; name: string }, foId: string, n: number, statuses: string[]) {
  const row = await claimForSessionRow(tx, teamId, session.id, foId, statuses);
  if (!row) return false;
  if (!row.tote_id) {
    const tote = await sessions.insertTote(tx, teamId, `${session.name}-${String(n).padStart(2, '0')}`);
    await sessions.setOrderTote(tx, foId, tote.id);
  }
  return true;
}

const defaultName = (input: CreateSessionInput) =>
  `${input.wave ? 'Wave' : 'Session'} ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;

/**
 * Creates the session and, in the same transaction, takes its fulfillment orders: the explicit
 * ones (each must be free: 409 otherwise) or the wave's (409 when none matches, nothing created).
 */
export async function createPickingSession(db: Db, teamId: string, input: CreateSessionInput) {
  const name = input.name ?? defaultName(input);
  const id = await transaction(db, async (tx) => {
    // The first statement is a write (SQLite takes the write lock at once: docs/conventions.md).
    const session = await sessions.insertSession(tx, teamId, name);
    let taken = 0;
    if (input.fulfillment_order_ids?.length) {
      for (const foId of input.fulfillment_order_ids) {
        if (!(await claim(tx, teamId, session, foId, taken + 1, ['PENDING', 'ACCEPTED', 'IN_PROGRESS']))) {
          if (!(await sessions.findTeamOrder(tx, teamId, foId))) {
            throw notFound('Fulfillment order', foId);
          }
          const named = await namedFulfillmentOrder(tx, foId);
          throw conflict(`${named} is closed, on hold or already in a picking session.`, { fulfillment_order_id: foId });
        }
        taken++;
      }
    }
    if (input.wave) {
      const warehouse = await sessions.teamWarehouseExists(tx, teamId, input.wave.warehouse_id);
      if (!warehouse) throw notFound('Warehouse', input.wave.warehouse_id);
      for (const foId of await waveCandidates(tx, teamId, input.wave)) {
        if (taken >= input.wave.max_orders) break;
        if (await claim(tx, teamId, session, foId, taken + 1, ['ACCEPTED'])) taken++; // else a racing wave took it
      }
      if (!taken) throw conflict('No fulfillment orders match the wave (open, accepted, in no session, not on hold).');
    }
    return session.id;
  });
  const session = await sessions.findSessionOrThrow(db.prisma, id);
  const count = await sessions.countOrdersInSession(db.prisma, teamId, id);
  return { ...session, fulfillment_order_count: count };
}
