// `fos inventory import` as people run it: the spawned bin/fos.js, twice in a row, on a
// pseudo-terminal 80 columns wide for the before -> after table; an unknown SKU refused by its CSV
// row with nothing applied; --dry-run showing the same table without changing anything.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo } from '../../src/server/demo/demo.js';
import type { TestApp } from '../helpers/app.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, ptyFos, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer();
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  await loadDemo(t.db);
  dir = await mkdtemp(path.join(tmpdir(), 'fos-import-'));
}, 300_000);
afterAll(() => t?.close());

async function onHand(sku: string) {
  const warehouse = await t.db.prisma.warehouse.findFirstOrThrow({ where: { name: 'Portland DC' } });
  return (await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product: { sku }, warehouse_id: warehouse.id } })).on_hand;
}

describe('fos inventory import (spawned)', () => {
  it('refuses a file with an unknown SKU by its CSV row, applying nothing (twice the same)', async () => {
    const file = path.join(dir, 'unknown.csv');
    await writeFile(file, 'sku,counted\nACME-STOVE,1\nNOT-A-SKU,4\n');
    const stove = await onHand('ACME-STOVE');
    for (let run = 0; run < 2; run++) {
      const r = await spawnFos(['inventory', 'import', file, '--warehouse', 'Portland DC'], env);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('error: row 3: Product with SKU "NOT-A-SKU" was not found.\nnothing was imported');
      expect(r.stdout).toBe('');
    }
    expect(await onHand('ACME-STOVE')).toBe(stove);
  });

  it('refuses an unknown --json field before applying anything (twice the same)', async () => {
    const file = path.join(dir, 'json-field.csv');
    const stove = await onHand('ACME-STOVE');
    await writeFile(file, `sku,counted\nACME-STOVE,${stove + 3}\n`);
    for (let run = 0; run < 2; run++) {
      const r = await spawnFos(['inventory', 'import', file, '--warehouse', 'Portland DC', '--json', 'applied,nope'], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('unknown field "nope" in --json');
      expect(r.stdout).toBe('');
    }
    expect(await onHand('ACME-STOVE')).toBe(stove);
    const ok = await spawnFos(['inventory', 'import', file, '--warehouse', 'Portland DC', '--json', 'applied'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ applied: 1 });
    expect(await onHand('ACME-STOVE')).toBe(stove + 3);
  });

  it('--dry-run shows the before -> after table and changes nothing; the import then shows the same', async () => {
    const stove = await onHand('ACME-STOVE');
    const tent = await onHand('ACME-TENT-2P');
    const file = path.join(dir, 'counts.csv');
    await writeFile(file, `sku,counted\nACME-STOVE,${stove + 5}\nACME-TENT-2P,${tent - 2}\n`);
    const table = new RegExp(
      `^ {2}ROW\\s+SKU\\s+WAREHOUSE\\s+BEFORE\\s+AFTER\\s+DELTA.*\\n {2}2\\s+ACME-STOVE\\s+Portland DC\\s+${stove}\\s+${stove + 5}\\s+5\\b.*\\n {2}3\\s+ACME-TENT-2P\\s+Portland DC\\s+${tent}\\s+${tent - 2}\\s+-2\\b`,
      'm',
    );
    for (let run = 0; run < 2; run++) {
      const dry = await ptyFos(['inventory', 'import', file, '--warehouse', 'Portland DC', '--dry-run'], env);
      expect(dry.code).toBe(0);
      expect(dry.out).toMatch(table);
      expect(dry.out).toContain(
        '2 counted row(s) checked in 1 request(s), 2 level(s) would change, reason CYCLE_COUNT; nothing was changed',
      );
      for (const l of dry.out.split('\n').filter((x) => x.startsWith('  '))) expect(l.length).toBeLessThanOrEqual(80);
    }
    expect([await onHand('ACME-STOVE'), await onHand('ACME-TENT-2P')]).toEqual([stove, tent]);

    const done = await ptyFos(['inventory', 'import', file, '--warehouse', 'Portland DC'], env);
    expect(done.code).toBe(0);
    expect(done.out).toMatch(table);
    expect(done.out).toContain('imported 2 row(s) in 1 request(s): 2 level(s) changed');
    expect([await onHand('ACME-STOVE'), await onHand('ACME-TENT-2P')]).toEqual([stove + 5, tent - 2]);

    // The same file again is the same import (its idempotency keys): nothing is applied twice.
    const repeat = await spawnFos(['inventory', 'import', file, '--warehouse', 'Portland DC'], env);
    expect(repeat.code, repeat.stderr).toBe(0);
    expect([await onHand('ACME-STOVE'), await onHand('ACME-TENT-2P')]).toEqual([stove + 5, tent - 2]);
    // Applied again on purpose (--run): the counts are already there, nothing moves, and the table says so.
    const again = await spawnFos(['inventory', 'import', file, '--warehouse', 'Portland DC', '--run', 'recount'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).lines.map((l: { delta: number }) => l.delta)).toEqual([0, 0]);
    expect(again.stderr).toContain('0 level(s) changed');
  });
});
