// `fos billing storage-run|storage-snapshots` and `fos warehouses update --time-zone` through the
// spawned bin/fos.js against a real server (clock fixed at 2026-06-02 12:00 UTC): a day taken and
// billed once, the second run saying what exists (exit 0), an unended day a conflict (exit 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { locationType, stockBins, storageMerchant, storageWarehouse } from '../helpers/storage-seed.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let wh: { id: string; name: string; team_id: string };
let merchant: { teamId: string };

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer({ clock: () => Date.parse('2026-06-02T12:00:00Z') });
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  wh = await storageWarehouse(t.db, t.teamId);
  const pallet = await locationType(t.db, t.teamId, 'Pallet');
  const card = {
    id: 'rc_cli',
    name: 'CLI card',
    version_id: 'v_2',
    semantic_version: '1.1.0',
    storage: { by_location_type: { [pallet.id]: { DAILY: 1.25 } } },
  };
  merchant = await storageMerchant(t.db, t.teamId, card);
  await stockBins(t.db, wh, merchant.teamId, { count: 4, units: 6, typeId: pallet.id, at: new Date('2026-01-01T00:00:00Z') });
}, 300_000);
afterAll(() => t?.close());

const fos = async (args: string[]) => {
  const r = await spawnFos(args, env);
  return { ...r, json: () => JSON.parse(r.stdout) };
};

describe('fos billing (spawned)', () => {
  it('storage-run bills a day once; the second run reports what exists; snapshots list it', async () => {
    const first = await fos(['billing', 'storage-run', '--date', '2026-06-01', '--warehouse', wh.name, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json()).toMatchObject({
      date: '2026-06-01',
      runs: [{ warehouse_id: wh.id, created: true, snapshot_count: 1, charge_count: 1, amount: 5 }],
    });
    const again = await fos(['billing', 'storage-run', '--date', '2026-06-01', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().runs).toEqual([expect.objectContaining({ warehouse_id: wh.id, created: false, charge_count: 1, amount: 5 })]);
    expect(await t.db.prisma.charge.count({ where: { category: 'STORAGE' } })).toBe(1);

    const snaps = await fos(['billing', 'storage-snapshots', '--merchant', merchant.teamId, '--json', 'date,locations,units']);
    expect(snaps.code, snaps.stderr).toBe(0);
    expect(snaps.json()).toEqual([{ date: '2026-06-01', locations: 4, units: 24 }]);

    const early = await fos(['billing', 'storage-run', '--date', '2026-06-02']);
    expect(early.code).toBe(5);
    expect(early.stderr).toContain('has not ended');
    const missing = await fos(['billing', 'storage-run']);
    expect(missing.code).toBe(2);
  });

  it('warehouses update --time-zone sets a valid IANA zone and refuses an unknown one', async () => {
    const ok = await fos(['warehouses', 'update', wh.name, '--time-zone', 'America/Los_Angeles', '--json', 'time_zone']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json()).toEqual({ time_zone: 'America/Los_Angeles' });
    const bad = await fos(['warehouses', 'update', wh.name, '--time-zone', 'Mars/Olympus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('time_zone');
    const list = await fos(['warehouses', 'list', '--json', 'name,time_zone']);
    expect(list.json()).toContainEqual({ name: wh.name, time_zone: 'America/Los_Angeles' });
  });
});
