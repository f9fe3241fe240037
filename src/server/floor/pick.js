// The walk of a picking session: the next bin, item, lot, quantity and tote in large type; a scan
// of the bin, then of the item (each unit, or a short report), checked by the server.

import { api } from './api.js';
import { $, appliers, h, say, show, state, sayError, submit } from './ui.js';

const remaining = (r) => r.remaining ?? r.quantity - (r.picked ?? 0);
const sameRow = (r, s) => r.location_name === s.location_name && r.sku === s.sku && (r.lot_code ?? null) === (s.lot_code ?? null);

export async function openSession(id) {
  state.sessionId = id;
  state.location = null;
  state.undo = [];
  try {
    const list = await api.pickList(id);
    state.rows = list.rows.map((r) => ({ ...r, picked: r.picked ?? 0, remaining: remaining(r) }));
    state.next = state.rows.find((r) => r.remaining > 0) ?? null;
    state.complete = list.complete ?? !state.next;
    show('pick');
    renderPick();
  } catch (err) {
    sayError(err);
  }
}

export function renderPick() {
  const n = state.next;
  const done = state.rows.reduce((a, r) => a + r.picked, 0);
  const all = state.rows.reduce((a, r) => a + r.picked + r.remaining, 0);
  $('pick-progress').textContent = `${done} of ${all} units picked`;
  const totes = n ? n.totes.map((t) => `${t.tote_name ?? t.order_number} ×${t.quantity}`).join(', ') : '';
  $('next').replaceChildren(
    ...(state.complete || !n
      ? [h('div', { class: 'done' }, 'Session picked ✓')]
      : [
          h('div', { class: 'label' }, state.location === n.location_name ? 'Scan the item' : 'Go to bin and scan it'),
          h('div', { class: 'bin', id: 'next-bin' }, n.location_name),
          h('div', { class: 'item' }, n.product_name),
          h('div', { class: 'sku' }, n.sku ?? n.barcode ?? '', n.lot_code ? ` · lot ${n.lot_code}` : ''),
          h('div', { class: 'qty' }, `× ${n.remaining}`),
          h('div', { class: 'tote' }, totes && `Tote ${totes}`),
          h('button', { type: 'button', class: 'short', onclick: reportShort }, 'Not there (short)'),
        ]),
  );
  $('pick-rows').replaceChildren(
    h(
      'ol',
      { class: 'rows' },
      state.rows.map((r) =>
        h(
          'li',
          { class: r.remaining === 0 ? 'picked' : r === n ? 'current' : '' },
          h('b', {}, r.location_name),
          ` ${r.sku ?? ''}${r.lot_code ? ` (${r.lot_code})` : ''} `,
          h('span', {}, `${r.picked}/${r.picked + r.remaining}`),
        ),
      ),
    ),
  );
  $('pick-to-pack').hidden = !state.complete;
}

/** A pick scan the server took: the row gains what was scanned, and its answer says what is next. */
function applyPick(answer) {
  const s = answer.scan;
  const row = state.rows.find((r) => sameRow(r, s));
  // A short scan's quantity is the units not found: no longer owed by this bin, not picked either.
  if (row) {
    row.picked += s.short ? 0 : s.quantity;
    row.remaining = Math.max(0, row.remaining - s.quantity);
  }
  state.next = answer.next ? (state.rows.find((r) => sameRow(r, answer.next)) ?? { ...answer.next, picked: 0 }) : null;
  if (state.next && answer.next.remaining !== undefined) state.next.remaining = answer.next.remaining;
  state.complete = answer.complete;
  if (!state.next || state.next.location_name !== state.location) state.location = null;
  state.undo.push({ kind: 'pick', target: state.sessionId, scan: s });
  say(s.short ? `Short: ${s.quantity} × ${s.sku} recorded` : `✓ ${s.sku} ×${s.quantity} → tote ${s.tote_name ?? '—'}`);
}

export async function pickScan(text) {
  const rows = state.rows;
  const isBin = rows.some((r) => r.location_name === text) || !state.location;
  if (isBin) {
    state.location = text;
    say(`Bin ${text}: scan the item`);
    return renderPick();
  }
  await submit('pick', state.sessionId, { location: state.location, barcode: text, quantity: 1 });
}

async function reportShort() {
  const n = state.next;
  if (!n) return;
  await submit('pick', state.sessionId, { location: n.location_name, barcode: n.barcode ?? n.sku, quantity: n.remaining, short: true });
}

appliers.pick = (answer, target) => {
  // A queued scan of another session (sent after the picker moved on) changes nothing shown.
  if (target !== state.sessionId) return say(`✓ queued ${answer.scan.sku} ×${answer.scan.quantity} picked`);
  applyPick(answer);
  if (state.screen === 'pick') renderPick();
};

/** After the server undid a pick scan: the row owes its units again. */
export function undonePick(scan) {
  const row = state.rows.find((r) => sameRow(r, scan));
  if (row) {
    if (!scan.short) row.picked -= scan.quantity;
    row.remaining += scan.quantity;
  }
  state.next = state.rows.find((r) => r.remaining > 0) ?? null;
  state.complete = !state.next;
  // The picker is still at that bin: the next item scan needs no bin scan first.
  state.location = scan.location_name;
  renderPick();
}
