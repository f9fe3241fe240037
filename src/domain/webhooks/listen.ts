import { transaction } from '../../db/tx.js';
import type { Db } from '../../db/types.js';
import { invalid } from '../errors.js';
import { enqueueEvent, EVENT_KINDS, type EventKind } from '../events/index.js';
import { findEventsAfter, findLastEventId } from './store/webhooks.js';

// The team's events as a long poll, for `fos webhooks listen` (docs/webhooks.md): read from the
// transactional outbox in the database, so every replica answers with every event whichever
// replica wrote it. A request waits (up to `wait` seconds, polling the table) until an event
// after the cursor exists. Events are ordered by id (UUIDv7, time-ordered): an event committed
// more than a poll later than an id-later one could be passed over; events are written in the
// transactions that make them, which commit within milliseconds.

const ZERO = '00000000-0000-0000-0000-000000000000';
const POLL_MS = 400;

export interface EventQuery {
  after?: string;
  types?: string;
  wait?: number;
  limit?: number;
}

/** `order.*,package.fulfilled` -> the kinds it names; 400 for a pattern naming none. */
export function kindsMatching(patterns: string | undefined): EventKind[] | undefined {
  const items = patterns
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items?.length || items.includes('*')) return undefined;
  const out = new Set<EventKind>();
  for (const p of items) {
    const hits = EVENT_KINDS.filter((k) => (p.endsWith('.*') ? k.startsWith(p.slice(0, -1)) : k === p));
    if (!hits.length) throw invalid('query.types', `${p} names no event type (types: ${EVENT_KINDS.join(', ')})`);
    hits.forEach((k) => out.add(k));
  }
  return [...out];
}

const view = (e: { id: string; kind: string; created_at: Date; payload: unknown }) => ({
  id: e.id,
  type: e.kind,
  created_at: e.created_at.toISOString(),
  data: e.payload as Record<string, unknown>,
});

export async function pollEvents(db: Db, teamId: string, q: EventQuery, signal?: AbortSignal) {
  const kinds = kindsMatching(q.types);
  let after = q.after;
  if (!after) {
    // No cursor: from now on (the newest event so far is the cursor).
    after = (await findLastEventId(db.prisma, teamId)) ?? ZERO;
  }
  const deadline = Date.now() + (q.wait ?? 0) * 1000;
  for (;;) {
    const rows = await findEventsAfter(db.prisma, teamId, after, kinds, q.limit ?? 100);
    if (rows.length || Date.now() >= deadline || signal?.aborted) {
      return { data: rows.map(view), meta: { next_after: rows.length ? rows[rows.length - 1].id : after } };
    }
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** A sample event of `type`, through the outbox: delivered to subscribed endpoints and listeners. */
export async function triggerEvent(db: Db, teamId: string, type: string) {
  if (!(EVENT_KINDS as readonly string[]).includes(type) || type === 'tracking.push') {
    throw invalid('type', `must be one of ${EVENT_KINDS.filter((k) => k !== 'tracking.push').join(', ')}`);
  }
  const event = await transaction(db, (tx) =>
    enqueueEvent(tx, teamId, type as EventKind, { sample: true, note: `a sample ${type} event sent by fos webhooks trigger` }),
  );
  return view(event);
}
