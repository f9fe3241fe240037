// Midday of the scripted day (docs/floor.md "A day on the floor", steps 4-6): a wave, `fos pick`
// on a terminal (a wrong scan, a short pick), the lead's answer to the short, `fos pack` on a
// terminal for two orders (a wrong scan), and the station's boxes shipped.
import { expect } from 'vitest';
import { barcodeOf, WAREHOUSE, type Day } from './morning.js';
import { fos, fosJson, read, Station } from './floor.js';

export const SHORT_SKU = 'BB-CAP';
/** Packed at the station; every other order ships in the batch (fulfill run). */
export const STATION_ORDERS = ['1001', '2003'];

export interface Wave {
  session: string;
  /** The order whose tote came up a unit short of BB-CAP. */
  shortOrder: string;
  /** Order number -> package made at the station. */
  stationPackages: Record<string, string>;
  /** Order number -> "bin|sku|lot" -> units the picker put in its tote (the pick list once picked). */
  picked: Record<string, Record<string, number>>;
  /** Order number -> its tote. */
  totes: Record<string, string>;
}

/** The lead starts one wave of every accepted order; each order gets a tote. */
export async function startWave(day: Day): Promise<Wave> {
  const s = await fosJson(day.f, ['picking-sessions', 'create', '--wave', WAREHOUSE, '--max-orders', '20', '--name', 'Morning']);
  const orders = await fosJson<any[]>(day.f, ['picking-sessions', 'orders', s.id, '--all']);
  expect(orders).toHaveLength(20);
  return { session: s.id, shortOrder: '', stationPackages: {}, picked: {}, totes: {} };
}

const PROMPT = /(scan bin|scan item) › $|SESSION COMPLETE/;

/**
 * `fos pick <session>` on a terminal. The picker walks the bins the station shows, scans the bin,
 * then the units for the tote shown (`N*CODE`); scans a tea box at a tee bin once (refused with the
 * bell); at the caps' bin the last unit is not there: `short 1`.
 */
export async function pickWave(day: Day, wave: Wave): Promise<void> {
  const st = new Station(day.f, ['pick', wave.session]);
  let screen = await st.waitFor(PROMPT);
  let wrongDone = false;
  let shortDone = false;
  for (;;) {
    const list = await read(day.f, `/ops/picking-sessions/${wave.session}/pick-list`);
    const row = list.rows.find((r: any) => r.remaining > 0);
    if (!row) break;
    const tote = row.totes.find((t: any) => t.remaining > 0);
    if (/scan bin › $/.test(screen)) {
      expect(screen).toMatch(new RegExp(`BIN\\s+${row.location_name}`));
      screen = await st.scan(row.location_name, PROMPT);
      continue;
    }
    expect(screen).toContain(`TOTE   ${tote.tote_name} · order ${tote.order_number}`);
    const code = row.barcode;
    if (!wrongDone && row.sku.startsWith('BB-TEE')) {
      const refused = await st.scan(barcodeOf('NW-GIFT'), PROMPT);
      expect(refused).toContain(`✗ Wrong item: NW-GIFT is not to be picked at ${row.location_name}.`);
      expect(st.pty.output()).toContain('\x07');
      wrongDone = true;
      screen = refused;
      continue;
    }
    const lastOfRow = row.totes.filter((t: any) => t.remaining > 0).length === 1;
    if (row.sku === SHORT_SKU && lastOfRow && !shortDone) {
      if (tote.remaining > 1) await st.scan(`${tote.remaining - 1}*${code}`, PROMPT);
      screen = await st.scan('short 1', PROMPT);
      expect(screen).toContain(`short 1 × ${SHORT_SKU} reported`);
      wave.shortOrder = tote.order_number;
      shortDone = true;
      continue;
    }
    screen = await st.scan(`${tote.remaining}*${code}`, PROMPT);
    expect(screen).toContain(`${tote.remaining} × ${row.sku} → tote ${tote.tote_name}`);
  }
  expect(screen).toContain('SESSION COMPLETE');
  expect(wrongDone && shortDone).toBe(true);
  const { code } = await st.exit();
  expect(code).toBe(0);
  const list = await read(day.f, `/ops/picking-sessions/${wave.session}/pick-list`);
  expect(list.complete).toBe(true);
  expect(list.short).toMatchObject([{ fulfillment_order_id: day.orders[wave.shortOrder].fo, sku: SHORT_SKU, quantity: 1 }]);
  for (const row of list.rows) {
    for (const t of row.totes) {
      const key = `${row.location_name}|${row.sku}|${row.lot_code ?? ''}`;
      wave.picked[t.order_number] ??= {};
      wave.totes[t.order_number] = t.tote_name;
      if (t.picked) wave.picked[t.order_number][key] = (wave.picked[t.order_number][key] ?? 0) + t.picked;
    }
  }
}

/**
 * The lead's answer to the short pick, today: the missing cap is split off the order's fulfillment
 * order and cancelled (the customer is refunded for it); the rest ships. The bin is marked for a
 * count (end of day). With "pack", fulfill run refuses the short order by itself (refusedShortfall).
 */
export async function splitOffShortfall(day: Day, wave: Wave): Promise<void> {
  const entries = await fosJson<any[]>(day.f, ['picking-sessions', 'orders', wave.session, '--all']);
  const fo = day.orders[wave.shortOrder].fo;
  expect(entries.filter((e) => e.short_picked).map((e) => e.fulfillment_order_id)).toEqual([fo]);
  const got = await fosJson(day.f, ['fulfillment-orders', 'get', fo]);
  const line = got.line_items.find((l: any) => l.sku === SHORT_SKU);
  const split = await fosJson(day.f, ['fulfillment-orders', 'split', fo, '--line', `${line.id}=1`]);
  expect(split.split.line_items).toMatchObject([{ sku: SHORT_SKU, quantity: 1 }]);
  await fos(day.f, ['fulfillment-orders', 'cancel', split.split.id, '--reason', 'INVENTORY', '--yes']);
}

/**
 * `fos pack` on a terminal, box after box: the packer scans the order's fulfillment order, then its
 * items (a wrong item once, refused with the bell), `done`, the weight; the label prints.
 */
export async function packAtStation(day: Day, wave: Wave): Promise<void> {
  const st = new Station(day.f, ['pack', '--rate-strategy', 'CHEAPEST', '--weight-unit', 'G', '--print']);
  await st.waitFor('SCAN THE FULFILLMENT ORDER');
  for (const number of STATION_ORDERS) {
    const fo = await fosJson(day.f, ['fulfillment-orders', 'get', day.orders[number].fo]);
    await st.scan(day.orders[number].fo, /ORDER #?\d+[^]*NEXT: \d+ X/);
    if (number === STATION_ORDERS[0]) {
      const wrong = await st.scan(barcodeOf('BB-CAP'), 'is not in this order');
      expect(wrong).toContain('\u0007');
    }
    for (const [i, l] of fo.line_items.entries()) {
      const last = i === fo.line_items.length - 1;
      const q = l.remaining_quantity;
      const shown = await st.scan(`${q}*${barcodeOf(l.sku)}`, last ? 'BOX COMPLETE' : `${q} x ${l.sku} in the box (${q} of ${q})`);
      expect(shown).toContain(`${q} x ${l.sku} in the box (${q} of ${q})`);
    }
    await st.scan('done', 'WEIGHT (G)');
    const closed = await st.scan('450', /SCAN THE FULFILLMENT ORDER/);
    expect(closed).toContain('Label sent to the printer');
    wave.stationPackages[number] = /Box closed: package (\S+)/.exec(closed)![1];
  }
  st.pty.type('quit\r');
  expect((await st.exit()).code).toBe(0);
}

/**
 * Today's way to ship a box closed (and labelled) at the station: lock its fulfillment order, then
 * `fos packages fulfill`. Replaced by shipFromStation (typing `ship` after `done`) once "pack" merges.
 */
export async function shipStationBoxesToday(day: Day, wave: Wave): Promise<void> {
  for (const [number, pkg] of Object.entries(wave.stationPackages)) {
    await fos(day.f, ['fulfillment-orders', 'lock', day.orders[number].fo]);
    const done = await fosJson(day.f, ['packages', 'fulfill', pkg]);
    expect(done).toMatchObject({ id: pkg });
  }
}

/**
 * The batch: every accepted fulfillment order, piped into `fos fulfill run --from -`. `code` 5 once
 * "pack" merges and the short order is left to the batch (refusedShortfallThenPartial).
 */
export async function shipBatch(day: Day, code = 0): Promise<any[]> {
  const ids = await fos(day.f, ['fulfillment-orders', 'list', '--status', 'ACCEPTED', '--all', '--json', 'id']);
  const r = await fos(day.f, ['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'], { input: ids.stdout, code });
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}
