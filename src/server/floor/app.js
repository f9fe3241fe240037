// The /floor page's screens: sign in, choose a picking session, walk it scanning bin then item,
// then pack: choose an order (or scan its tote), scan its items, close the box. Every server call
// is in api.js; scanner and camera input in scan.js. No framework, no build step.

import { api, ApiError, flushQueue, queued, sendScan, session, signIn, signOut } from './api.js';
import { cameraAvailable, cameraScan, refuse, wedge } from './scan.js';

const $ = (id) => document.getElementById(id);

/** A DOM element; children are nodes or text (never parsed as HTML). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

const state = { screen: 'sign-in', sessionId: null, rows: [], next: null, complete: false, location: null, undo: [], fo: null, orders: [] };

function show(screen) {
  state.screen = screen;
  for (const s of ['sign-in', 'home', 'pick', 'pack']) $(`screen-${s}`).hidden = s !== screen;
  $('scan-bar').hidden = !(screen === 'pick' || screen === 'pack');
  $('sign-out').hidden = screen === 'sign-in';
  const s = session();
  $('who').textContent = s ? `${s.user.name} · ${s.team.name}` : '';
  if (!$('scan-bar').hidden) $('scan').focus();
}

function say(text, kind = 'ok') {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
  if (kind === 'error') refuse(document.body);
}

/** A refusal or failure, in the server's words; a refusal names what to do instead. */
function sayError(err) {
  if (!(err instanceof ApiError)) return say(err.message, 'error');
  if (err.status === 401 && !session() && state.screen !== 'sign-in') return showSignIn('Your sign-in ended. Sign in again.');
  const e = err.body.expected;
  const hint = e && e.location_name ? ` Next: ${e.location_name} · ${e.sku}${e.lot_code ? ` lot ${e.lot_code}` : ''} × ${e.quantity}` : '';
  say(`${err.message}${hint}`, 'error');
}

// ---------- sign in ----------

function showSignIn(message) {
  show('sign-in');
  if (message) say(message, 'error');
  $('email').focus();
}

$('sign-in-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  try {
    await signIn($('email').value, $('password').value, $('team-choice').hidden ? undefined : $('team').value);
    $('password').value = '';
    say('');
    await showHome();
  } catch (err) {
    if (err instanceof ApiError && err.status === 409 && err.body.teams) {
      $('team').replaceChildren(...err.body.teams.map((t) => h('option', { value: t.team_id }, t.team_name)));
      $('team-choice').hidden = false;
      return say('Choose the team you work for.');
    }
    sayError(err);
  }
});

$('sign-out').addEventListener('click', async () => {
  await signOut();
  showSignIn();
});

// ---------- sessions ----------

async function showHome() {
  show('home');
  try {
    const { data } = await api.pickingSessions();
    $('sessions').replaceChildren(
      ...(data.length ? data : [{ empty: true }]).map((s) =>
        s.empty
          ? h('li', { class: 'muted' }, 'No picking sessions.')
          : h('li', {}, h('button', { class: 'big choice', onclick: () => openSession(s.id) }, s.name, h('small', {}, `${s.fulfillment_order_count} orders`))),
      ),
    );
  } catch (err) {
    sayError(err);
  }
}

// ---------- picking: bin, then item ----------

const remaining = (r) => r.remaining ?? r.quantity - (r.picked ?? 0);
const sameRow = (r, s) => r.location_name === s.location_name && r.sku === s.sku && (r.lot_code ?? null) === (s.lot_code ?? null);

async function openSession(id) {
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

function renderPick() {
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
  state.next = answer.next ? state.rows.find((r) => sameRow(r, answer.next)) ?? { ...answer.next, picked: 0 } : null;
  if (state.next && answer.next.remaining !== undefined) state.next.remaining = answer.next.remaining;
  state.complete = answer.complete;
  if (!state.next || state.next.location_name !== state.location) state.location = null;
  state.undo.push({ kind: 'pick', target: state.sessionId, scan: s });
  say(s.short ? `Short: ${s.quantity} × ${s.sku} recorded` : `✓ ${s.sku} ×${s.quantity} → tote ${s.tote_name ?? '—'}`);
}

async function pickScan(text) {
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

/** Sends a scan; queued when offline (shown below), refused ones flash red with the server's words. */
async function submit(kind, target, body) {
  try {
    const answer = await sendScan(kind, target, body);
    if (answer.queued) say(`No connection: scan queued (${queued().length} waiting)`, 'warn');
    else applyAnswer(kind, answer);
  } catch (err) {
    sayError(err);
  }
  renderQueue();
}

function applyAnswer(kind, answer) {
  if (kind === 'pick') {
    applyPick(answer);
    if (state.screen === 'pick') renderPick();
  } else {
    state.undo.push({ kind: 'pack', target: state.fo.id, scan: answer.scan });
    say(`✓ ${answer.scan.sku} ×${answer.scan.quantity}`);
    if (state.fo && state.fo.id) renderPack(answer);
  }
}

// ---------- packing ----------

async function showPack() {
  show('pack');
  state.fo = null;
  $('pack-choose').hidden = false;
  $('pack-work').hidden = true;
  $('package').hidden = true;
  $('pack-title').textContent = 'Choose an order';
  try {
    const [fos, entries] = await Promise.all([api.fulfillmentOrders(), state.sessionId ? api.sessionOrders(state.sessionId) : { data: [] }]);
    const tote = new Map(entries.data.map((e) => [e.fulfillment_order_id, e.tote_name]));
    state.orders = fos.data.map((f) => ({ ...f, tote_name: tote.get(f.id) ?? null }));
    $('pack-orders').replaceChildren(
      ...state.orders.map((f) =>
        h('li', {}, h('button', { class: 'big choice', onclick: () => openOrder(f) }, `Order ${f.order_number}`, h('small', {}, f.tote_name ? `tote ${f.tote_name}` : f.status))),
      ),
    );
  } catch (err) {
    sayError(err);
  }
}

async function openOrder(fo) {
  state.fo = fo;
  state.undo = [];
  $('pack-choose').hidden = true;
  $('pack-work').hidden = false;
  $('package').hidden = true;
  $('pack-title').textContent = `Order ${fo.order_number}${fo.tote_name ? ` · tote ${fo.tote_name}` : ''}`;
  try {
    renderPack(await api.packScans(fo.id));
  } catch (err) {
    sayError(err);
  }
}

function renderPack(body) {
  $('pack-need').replaceChildren(
    body.complete ? h('div', { class: 'done' }, 'All scanned: close the box ✓') : h('div', { class: 'label' }, 'Scan each item'),
    ...body.remaining.filter((r) => r.quantity > 0).map((r) => h('div', { class: 'need' }, h('b', {}, r.sku), ` × ${r.quantity}`)),
  );
  $('pack-scanned').replaceChildren(
    h('h2', {}, 'In the box'),
    h('ul', { class: 'rows' }, body.scanned.map((s) => h('li', {}, `${s.sku}${s.lot_code ? ` (${s.lot_code})` : ''} × ${s.quantity}`))),
  );
  $('close-box').classList.toggle('ready', body.complete);
}

function packScan(text) {
  if (!state.fo) {
    const fo = state.orders.find((f) => f.tote_name === text || f.order_number === text || f.id === text);
    return fo ? openOrder(fo) : say(`No open order or tote ${text}`, 'error');
  }
  return submit('pack', state.fo.id, { barcode: text, quantity: 1 });
}

$('close-box').addEventListener('click', async () => {
  try {
    const pkg = await api.pack(state.fo.id, {});
    $('pack-work').hidden = true;
    $('package').hidden = false;
    $('package').replaceChildren(
      h('div', { class: 'done' }, 'Box closed ✓'),
      h('div', {}, 'Package ', h('code', { id: 'package-id' }, pkg.id)),
      h('ul', {}, (pkg.line_items ?? []).map((l) => h('li', {}, `${l.sku ?? l.product_id}${l.lot_code ? ` (${l.lot_code})` : ''} × ${l.quantity}`))),
      h('button', { class: 'big', type: 'button', onclick: showPack }, 'Next order'),
    );
    say(`Package ${pkg.id} made`);
  } catch (err) {
    sayError(err);
  }
});

// ---------- undo, queue, wiring ----------

$('undo').addEventListener('click', async () => {
  const last = state.undo.pop();
  if (!last) return say('Nothing to undo.');
  try {
    if (last.kind === 'pick') {
      await api.undoPickScan(last.target, last.scan.id);
      const row = state.rows.find((r) => sameRow(r, last.scan));
      if (row) {
        if (!last.scan.short) row.picked -= last.scan.quantity;
        row.remaining += last.scan.quantity;
      }
      state.next = state.rows.find((r) => r.remaining > 0) ?? null;
      state.complete = !state.next;
      // The picker is still at that bin: the next item scan needs no bin scan first.
      state.location = last.scan.location_name;
      renderPick();
    } else {
      await api.undoPackScan(last.target, last.scan.id);
      renderPack(await api.packScans(last.target));
    }
    say(`Undone: ${last.scan.sku} ×${last.scan.quantity}`);
  } catch (err) {
    state.undo.push(last);
    sayError(err);
  }
});

function renderQueue() {
  const q = queued();
  $('queue').hidden = !q.length;
  $('queue').replaceChildren(
    h('div', {}, h('b', {}, `${q.length} scan(s) waiting for the network`), ' ', h('button', { type: 'button', onclick: retry }, 'Send now')),
    h('ol', {}, q.map((e) => h('li', {}, `${e.kind} ${e.body.location ?? ''} ${e.body.barcode}`))),
  );
}

let flushing = false;
async function retry() {
  if (flushing || !queued().length || !session()) return;
  flushing = true;
  try {
    const all = await flushQueue((entry, answer, error) => (error ? sayError(error) : applyAnswer(entry.kind, answer)));
    if (all) say('Queued scans sent ✓');
  } finally {
    flushing = false;
    renderQueue();
  }
}

wedge($('scan'), (text) => (state.screen === 'pick' ? pickScan(text) : packScan(text)));
// The scanner types into the scan input: focus returns to it after any tap elsewhere.
document.addEventListener('click', (e) => {
  if (!$('scan-bar').hidden && !['INPUT', 'SELECT'].includes(e.target.tagName)) $('scan').focus();
});
if (cameraAvailable()) {
  $('camera').hidden = false;
  $('camera').addEventListener('click', async () => {
    const text = await cameraScan($('video')).result.catch((err) => {
      say(`Camera: ${err.message}`, 'error');
      return null;
    });
    if (text) await (state.screen === 'pick' ? pickScan(text) : packScan(text));
  });
}
$('go-pack').addEventListener('click', () => ((state.sessionId = null), showPack()));
$('pick-to-pack').addEventListener('click', showPack);
$('pick-back').addEventListener('click', showHome);
$('pack-back').addEventListener('click', () => (state.fo ? showPack() : state.sessionId ? openSession(state.sessionId) : showHome()));
window.addEventListener('online', retry);
setInterval(retry, 5000);

renderQueue();
if (session()) showHome().then(retry);
else showSignIn();
