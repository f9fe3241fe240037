// `fos rate-cards …` and `fos charges add` through the spawned bin/fos.js against a real server
// (clock fixed at 2026-02-10): publish a YAML file, show it and publish the shown JSON unchanged
// (the same version), publish a second version, diff the two, test a sample event, assign the card
// to a merchant and post an ad-hoc charge it prices.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let dir: string;
let merchant: { teamId: string; delegationId: string };

const YAML = `# Standard rates
rate_card_name: Standard
semantic_version: 1.0.0
effective_at: 2026-01-01T00:00:00Z
currency: USD
fees:
  - id: pick
    event: PICK
    price: { type: FIRST_ADDITIONAL, first: 1, additional: 0.3 }
  - id: projects
    name: Special projects per hour
    event: AD_HOC
    price: { type: PER_UNIT, amount: 45 }
`;

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer({ clock: () => Date.parse('2026-02-10T09:00:00Z') });
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  dir = await mkdtemp(path.join(tmpdir(), 'fos-rate-cards-'));
  merchant = await t.merchant();
}, 300_000);
afterAll(() => t?.close());

const fos = async (args: string[]) => {
  const r = await spawnFos(args, env);
  return { ...r, json: () => JSON.parse(r.stdout) };
};

describe('fos rate-cards (spawned)', () => {
  it('publish a YAML file, show it, publish what show printed unchanged, diff two versions, test an event', async () => {
    const file = path.join(dir, 'standard.yaml');
    await writeFile(file, YAML);
    const pub = await fos(['rate-cards', 'publish', file, '--json', 'rate_card_name,semantic_version,version_id']);
    expect(pub.code, pub.stderr).toBe(0);
    const v1 = pub.json();
    expect(v1).toMatchObject({ rate_card_name: 'Standard', semantic_version: '1.0.0' });

    const shown = await fos(['rate-cards', 'show', 'Standard', '1.0.0', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json().fees[0]).toEqual({ id: 'pick', event: 'PICK', price: { type: 'FIRST_ADDITIONAL', first: 1, additional: 0.3 } });
    const shownFile = path.join(dir, 'shown.json');
    await writeFile(shownFile, shown.stdout);
    const again = await fos(['rate-cards', 'publish', shownFile, '--json', 'version_id']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().version_id).toBe(v1.version_id);

    const v2 = YAML.replace('1.0.0', '1.1.0').replace('first: 1,', 'first: 1.2,').replace('2026-01-01', '2026-02-01');
    await writeFile(path.join(dir, 'v2.yaml'), v2);
    expect((await fos(['rate-cards', 'publish', path.join(dir, 'v2.yaml')])).code).toBe(0);
    const diff = await fos(['rate-cards', 'diff', 'Standard', '1.0.0', '1.1.0', '--json']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.json().map((c: any) => [c.what, c.change])).toEqual([
      ['semantic_version', 'changed'],
      ['effective_at', 'changed'],
      ['fee pick', 'changed'],
    ]);

    const event = JSON.stringify({ event: 'PICK', merchant_team_id: merchant.teamId, units: 4 });
    const tested = await fos(['rate-cards', 'test', 'Standard', '--event', event, '--json', 'semantic_version,calculated_amount']);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.json()).toEqual({ semantic_version: '1.1.0', calculated_amount: 2.1 });
    const before = await fos([
      'rate-cards',
      'test',
      'Standard',
      '--event',
      event,
      '--at',
      '2026-01-15T00:00:00Z',
      '--json',
      'calculated_amount',
    ]);
    expect(before.json()).toEqual({ calculated_amount: 1.9 });

    const bad = await fos(['rate-cards', 'publish', path.join(dir, 'missing.yaml')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('cannot read');
  });

  it('assign the card to a merchant and post an ad-hoc charge with a note', async () => {
    const assigned = await fos(['rate-cards', 'assign', merchant.delegationId, 'Standard', '--json', 'rate_card_id']);
    expect(assigned.code, assigned.stderr).toBe(0);
    const add = await fos([
      'charges',
      'add',
      '--merchant',
      merchant.teamId,
      '--name',
      'Rework pallets',
      '--note',
      'damaged inbound',
      '--quantity',
      '2',
      '--json',
      'category,calculated_amount,description',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.json()).toEqual({ category: 'AD_HOC', calculated_amount: 90, description: 'damaged inbound' });
    const missing = await fos(['rate-cards', 'show', 'Nope']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Rate card Nope');
  });
});
