// Shipping the box just closed, in one step (docs/floor.md "Ship"), through the same calls as
// `fos pack`'s `ship` (src/cli/commands/pack/station.ts): label it when it has no label (the
// package's rate strategy, else CHEAPEST), then fulfill it (the server locks for the fulfill and releases).
// A fulfillment order with units recorded short never ships from here as it is: the page shows
// the shortfall and offers to split the short units off (a new fulfillment order) and ship the rest.

import { api } from './api.js';
import { $, h, say, sayError } from './ui.js';

/** The Ship button and its answer area, for the "Box closed" card of package `pkg` of order `fo`. */
export function shipControls(pkg, fo) {
  const box = { pkg, fo };
  return [
    h('button', { id: 'ship', class: 'primary big', type: 'button', onclick: () => ship(box) }, 'Ship'),
    h('div', { id: 'ship-result', 'aria-live': 'polite' }),
  ];
}

const result = (...children) => $('ship-result').replaceChildren(...children);

async function ship(box) {
  const button = $('ship');
  button.disabled = true;
  result();
  try {
    const fo = await api.fulfillmentOrder(box.fo.id);
    const short = fo.line_items.filter((l) => (l.short_quantity ?? 0) > 0);
    if (short.length) return offerSplit(box, short);
    if (!box.pkg.shipping_label && !box.pkg.shipment_status) box.pkg = await api.label(box.pkg);
    const done = await api.fulfill(box.pkg.id);
    button.hidden = true;
    result(h('div', { class: 'done' }, 'Shipped ✓'), h('div', {}, 'Tracking ', h('b', { id: 'tracking' }, done.tracking_number ?? '—')));
    say(`Order ${box.fo.order_number} shipped`);
  } catch (err) {
    // A label no carrier can rate says why, per service (e.g. the box has no weight).
    const why = (err.body?.rate_error_data?.detailed_errors ?? []).map((e) => e.message);
    result(h('div', { class: 'refused' }, `Not shipped: ${err.message}`), ...why.map((m) => h('div', { class: 'muted' }, m)));
    sayError(err);
  } finally {
    button.disabled = false;
  }
}

/** Shows what is short and the one way on: split it off (the lead's partial shipment), then ship. */
function offerSplit(box, short) {
  const what = short.map((l) => `${l.sku ?? 'item'} × ${l.short_quantity}`).join(', ');
  result(
    h('div', { class: 'refused', id: 'shortfall' }, `Not shipped: order ${box.fo.order_number} is short ${what}.`),
    h(
      'button',
      { id: 'split-ship', class: 'big', type: 'button', onclick: () => splitAndShip(box) },
      'Split off the short units and ship the rest',
    ),
  );
  say(`Order ${box.fo.order_number} has units recorded short`, 'warn');
}

async function splitAndShip(box) {
  result(); // the shortfall shown is answered: what follows replaces it
  try {
    await api.splitShortfall(box.fo.id);
  } catch (err) {
    return sayError(err);
  }
  await ship(box);
}
