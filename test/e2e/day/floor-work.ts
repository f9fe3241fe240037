// Midday of the scripted day (docs/floor.md "A day on the floor", step 4): a wave, and `fos pick`
// on a terminal (a wrong scan, a short pick). The pack station and the batch are in station.ts.
import { expect } from 'vitest';
import { barcodeOf, WAREHOUSE, type Day } from './morning.js';
import { fosJson, read, Station } from './floor.js';

export const SHORT_SKU = 'BB-CAP';

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
  expect(wave.shortOrder).toBe('2010'); // the LOW order: the wave's last, its tote the last at the caps' bin (morning.ts)
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
