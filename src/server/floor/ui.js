// Shared by the /floor page's screens: DOM helpers, the page state, messages, and sending a
// scan (queued when offline; each screen registers how an answer changes it).

import { ApiError, queued, sendScan, session } from './api.js';
import { refuse } from './scan.js';

export const $ = (id) => document.getElementById(id);

/** A DOM element; children are nodes or text (never parsed as HTML). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export const state = {
  screen: 'sign-in',
  sessionId: null,
  rows: [],
  next: null,
  complete: false,
  location: null,
  undo: [],
  fo: null,
  orders: [],
  weightUnit: null,
};

export function show(screen) {
  state.screen = screen;
  for (const s of ['sign-in', 'home', 'pick', 'pack']) $(`screen-${s}`).hidden = s !== screen;
  $('scan-bar').hidden = !(screen === 'pick' || screen === 'pack');
  $('sign-out').hidden = screen === 'sign-in';
  const s = session();
  $('who').textContent = s ? `${s.user.name} · ${s.team.name}` : '';
  if (!$('scan-bar').hidden) $('scan').focus();
}

export function say(text, kind = 'ok') {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
  if (kind === 'error') refuse(document.body);
}

/** A refusal or failure, in the server's words; a refusal names what to do instead. */
export function sayError(err) {
  if (!(err instanceof ApiError)) return say(err.message, 'error');
  if (err.status === 401 && !session() && state.screen !== 'sign-in') return hooks.signedOut('Your sign-in ended. Sign in again.');
  const e = err.body.expected;
  const hint = e && e.location_name ? ` Next: ${e.location_name} · ${e.sku}${e.lot_code ? ` lot ${e.lot_code}` : ''} × ${e.quantity}` : '';
  say(`${err.message}${hint}`, 'error');
}

/** Set by app.js: what to show when the sign-in has ended. */
export const hooks = { signedOut: () => undefined, retry: () => undefined };

/** How a screen takes the server's answer to a scan of its kind ('pick', 'pack'): (answer, target). */
export const appliers = {};

/** Sends a scan; queued when offline (shown), refused ones flash red with the server's words. */
export async function submit(kind, target, body) {
  try {
    const answer = await sendScan(kind, target, body);
    if (answer.queued) say(`No connection: scan queued (${queued().length} waiting)`, 'warn');
    else appliers[kind](answer, target);
  } catch (err) {
    sayError(err);
  }
  renderQueue();
}

export function renderQueue() {
  const q = queued();
  $('queue').hidden = !q.length;
  $('queue').replaceChildren(
    h(
      'div',
      {},
      h('b', {}, `${q.length} scan(s) waiting for the network`),
      ' ',
      h('button', { type: 'button', onclick: () => hooks.retry() }, 'Send now'),
    ),
    h(
      'ol',
      {},
      q.map((e) => h('li', {}, `${e.kind} ${e.body.location ?? ''} ${e.body.barcode}`)),
    ),
  );
}
