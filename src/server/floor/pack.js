// Packing an order: choose it (or scan its tote or order number), scan each item into the box,
// then close the box into a package with exactly the scanned lines.

import { api, findPackOrder, namesOrder } from './api.js';
import { shipControls } from './ship.js';
import { $, appliers, h, say, show, state, sayError, submit } from './ui.js';

export async function showPack() {
  show('pack');
  state.fo = null;
  $('pack-choose').hidden = false;
  $('pack-work').hidden = true;
  $('package').hidden = true;
  $('pack-title').textContent = 'Choose an order';
  try {
    const [fos, entries] = await Promise.all([
      api.fulfillmentOrders(),
      state.sessionId ? api.sessionOrders(state.sessionId) : { data: [] },
    ]);
    const tote = new Map(entries.data.map((e) => [e.fulfillment_order_id, e.tote_name]));
    state.orders = fos.data.map((f) => ({ ...f, tote_name: tote.get(f.id) ?? null }));
    $('pack-orders').replaceChildren(
      ...state.orders.map((f) =>
        h(
          'li',
          {},
          h(
            'button',
            { class: 'big choice', onclick: () => openOrder(f) },
            `Order ${f.order_number}`,
            h('small', {}, f.tote_name ? `tote ${f.tote_name}` : f.status),
          ),
        ),
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
  $('box-weight').value = '';
  try {
    // The weight is asked in the team's unit, as `fos pack` asks it: the label is priced by it.
    state.weightUnit ??= (await api.me()).measurement_system === 'IMPERIAL' ? 'LB' : 'G';
    $('weight-unit').textContent = state.weightUnit;
    renderPack(await api.packScans(fo.id));
  } catch (err) {
    sayError(err);
  }
}

export function renderPack(body) {
  const left = body.remaining.filter((r) => r.quantity > 0);
  $('pack-need').replaceChildren(
    body.complete ? h('div', { class: 'done' }, 'All scanned: close the box ✓') : h('div', { class: 'label' }, 'Scan each item'),
    ...left.map((r) => h('div', { class: 'need' }, h('b', {}, r.sku), ` × ${r.quantity}`)),
    // Units recorded short stay out of the box: shown, so nobody goes looking for them again.
    ...(body.lines ?? [])
      .filter((l) => l.short > 0)
      .map((l) => h('div', { class: 'short-note' }, `Short: ${l.sku ?? l.name} × ${l.short}`)),
    ...(left[0]?.sku ? [shortControl(left[0])] : []),
  );
  $('pack-scanned').replaceChildren(
    h('h2', {}, 'In the box'),
    h(
      'ul',
      { class: 'rows' },
      body.scanned.map((s) => h('li', {}, `${s.sku}${s.lot_code ? ` (${s.lot_code})` : ''} × ${s.quantity}`)),
    ),
  );
  $('close-box').classList.toggle('ready', body.complete);
}

export function packScan(text) {
  if (!state.fo) {
    const fo = state.orders.find((f) => namesOrder(f, text));
    if (fo) return openOrder(fo);
    return findPackOrder(text) // not among those listed: the server finds it by tote or order number
      .then((found) => (found ? openOrder({ ...found, tote_name: null }) : say(`No open order or tote ${text}`, 'error')))
      .catch(sayError);
  }
  return submit('pack', state.fo.id, { barcode: text, quantity: 1 });
}

$('close-box').addEventListener('click', async () => {
  try {
    const weight = $('box-weight').value.trim();
    const pkg = await api.pack(state.fo.id, weight ? { weight: Number(weight), weight_unit: state.weightUnit } : {});
    $('pack-work').hidden = true;
    $('package').hidden = false;
    $('package').replaceChildren(
      h('div', { class: 'done' }, 'Box closed ✓'),
      h('div', { class: 'muted' }, 'Package ', h('code', { id: 'package-id' }, pkg.id)),
      h(
        'ul',
        {},
        (pkg.package_line_items ?? []).map((l) =>
          h('li', {}, `${l.sku ?? l.product_id}${l.lot_code ? ` (${l.lot_code})` : ''} × ${l.quantity}`),
        ),
      ),
      ...shipControls(pkg, state.fo),
      h('button', { class: 'big', type: 'button', onclick: showPack }, 'Next order'),
    );
    say(`Order ${state.fo.order_number} packed`);
  } catch (err) {
    sayError(err);
  }
});

/**
 * Short: the item shown first is not (all) there. The packer enters the missing units (default 1);
 * they are recorded short on the line (`short: true` pack scan), never packed, and the order ships
 * only once the lead splits them off (ship.js).
 */
function shortControl(item) {
  const qty = h('input', { id: 'short-qty', type: 'number', min: 1, max: item.quantity, value: 1, inputmode: 'numeric' });
  const report = () => {
    const quantity = Number(qty.value);
    if (!Number.isInteger(quantity) || quantity < 1) return say('Enter the number of missing units (1 or more)', 'error');
    return submit('pack', state.fo.id, { barcode: item.sku, quantity, short: true });
  };
  return h(
    'div',
    { class: 'row short-row' },
    h('label', { for: 'short-qty', class: 'sr' }, `Units of ${item.sku} missing`),
    qty,
    h('button', { id: 'pack-short', type: 'button', class: 'short', onclick: report }, `Short: ${item.sku}`),
  );
}

appliers.pack = (answer, target) => {
  if (answer.scan.short) say(`Short: ${answer.scan.quantity} × ${answer.scan.sku} recorded missing, not packed`, 'warn');
  else {
    state.undo.push({ kind: 'pack', target, scan: answer.scan });
    say(`✓ ${answer.scan.sku} ×${answer.scan.quantity}`);
  }
  if (state.fo && state.fo.id === target) renderPack(answer);
};
