import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { createKey } from '../../src/domain/keys/keys.js';
import * as teams from '../../src/domain/teams/teams.js';
import type { TestApp } from '../helpers/app.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { fixtureWarehouse, fulfillmentFixture, SHIP_TO } from '../helpers/fixtures.js';
import { spawnServe, useServeSandbox, type ServeProcess } from '../helpers/serve-process.js';
import { until } from '../helpers/until.js';
import { ensureCliBundle } from './helpers/spawn.js';

// A label batch of 200 packages through EasyPost (the loopback double, which counts what it
// sold), 10 of them refused by the carrier, with `fos serve` killed (SIGKILL) halfway: a second
// server on the same database resumes the batch; no label is bought twice (purchases in flight at
// the kill are settled, not bought again), the 10 failures keep the carrier's reason, and the
// merged PDF has 190 pages (pdfinfo, poppler-utils). Every wait is on a condition.

const box = useServeSandbox();
const PACKAGES = 200;
const REFUSED = new Set([7, 19, 33, 50, 71, 102, 120, 150, 177, 199]); // positions (0-based)
const exec = promisify(execFile);

let ep: EasyPostDouble;
afterAll(async () => ep?.close());

/** A fulfiller team with a key, a merchant, a warehouse and 200 accepted fulfillment orders, written before any server starts. */
async function seed(file: string) {
  await migrate(file);
  const db = await createDb(file);
  try {
    const teamId = (await bootstrapIfEmpty(db))!.teamId;
    const token = (await createKey(db, teamId, { name: 'kill test', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const merchant = await teams.createTeam(db, { name: 'Merchant', kind: 'MERCHANT' });
    await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: teamId });
    // The fixtures need only the database and the team of a test app.
    const t = { db, teamId, merchant: async () => ({ teamId: merchant.id }) } as unknown as TestApp;
    const warehouseId = await fixtureWarehouse(t);
    const fos = [];
    for (let i = 0; i < PACKAGES; i++) {
      const shippingAddress = REFUSED.has(i) ? { ...SHIP_TO, name: `Refuse ${i}` } : SHIP_TO;
      const f = await fulfillmentFixture(t, {
        lines: [{ quantity: 1 }],
        status: 'ACCEPTED',
        merchantTeamId: merchant.id,
        warehouseId,
        shippingAddress,
      });
      fos.push({ id: f.fo.id as string, sku: f.foLines[0].sku as string });
    }
    return { token, fos };
  } finally {
    await db.close();
  }
}

function api(s: ServeProcess, token: string) {
  return async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${s.url}${url.replace(/^\/v1/, '')}`, {
      method,
      headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
  };
}

describe('a label batch across a killed server', () => {
  it('resumes after SIGKILL: 190 labels bought once each, 10 failures with reasons, a 190-page PDF', async () => {
    await ensureCliBundle();
    ep = await easypostDouble();
    ep.rates = [{ carrier: 'USPS', service: 'GroundAdvantage', rate: '5.93', delivery_days: 3 }];
    ep.refuseBuy = (s) => (String(s.to_address?.name).startsWith('Refuse') ? 'Address is not deliverable for this service' : null);
    const file = path.join(box.dir, 'fos.db');
    const { token, fos } = await seed(file);
    // Short leases so the second server takes the batch and the purchases left in flight soon after the kill.
    const env = { ...box.env, FOS_LABEL_BATCH_LEASE_MS: '1500', FOS_LABEL_CLAIM_LEASE_MS: '2000', FOS_LABEL_BATCH_CONCURRENCY: '8' };
    const args = ['--db', file, '--port', '0', '--allow-private-network'];

    const first = box.track(await spawnServe(args, env, box.dir).started);
    const call1 = api(first, token);
    const ci = await call1('POST', '/v1/ops/carrier-integrations', {
      name: 'EasyPost',
      type: 'EASYPOST',
      api_base_url: `${ep.url}/v2`,
      credentials: { api_key: ep.apiKey, webhook_secret: 'ep-secret' },
    });
    expect(ci.status, ci.bytes.toString()).toBe(201);
    const ids: string[] = [];
    for (const fo of fos) {
      const p = await call1('POST', '/v1/ops/packages', {
        fulfillment_order_id: fo.id,
        weight: 900,
        weight_unit: 'G',
        package_line_items: [{ sku: fo.sku, quantity: 1 }],
      });
      expect(p.status, p.bytes.toString()).toBe(201);
      ids.push(p.json().id);
    }
    const made = await call1('POST', '/v1/ops/label-batches', { package_ids: ids, rate_strategy: 'CHEAPEST' });
    expect(made.status, made.bytes.toString()).toBe(202);
    const batchId = made.json().id as string;

    await until(() => ep.sold().length >= PACKAGES / 2, 'half the labels sold', 120_000);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const soldAtKill = ep.sold().length;
    expect(soldAtKill).toBeLessThan(PACKAGES - REFUSED.size);

    const second = box.track(await spawnServe(args, env, box.dir).started);
    const call2 = api(second, token);
    const halfway = (await call2('GET', `/v1/ops/label-batches/${batchId}`)).json();
    expect(halfway.status).toBe('RUNNING');
    expect(halfway.pending).toBeGreaterThan(0);
    let b: any;
    await until(
      async () => (b = (await call2('GET', `/v1/ops/label-batches/${batchId}`)).json()).status === 'COMPLETED',
      'the resumed batch to complete',
      180_000,
    );
    expect(b).toMatchObject({ package_count: PACKAGES, pending: 0, bought: PACKAGES - REFUSED.size, failed: REFUSED.size, skipped: 0 });
    // The carrier sold exactly one label per bought package: none twice, none for a refused one.
    expect(ep.sold()).toHaveLength(PACKAGES - REFUSED.size);
    const failed = b.items.filter((i: any) => i.status === 'FAILED');
    expect(failed.map((i: any) => i.position - 1).sort((x: number, y: number) => x - y)).toEqual([...REFUSED].sort((x, y) => x - y));
    for (const i of failed) expect(i.message).toMatch(/Address is not deliverable for this service/);
    const tracking = b.items.filter((i: any) => i.status === 'BOUGHT').map((i: any) => i.tracking_number);
    expect(new Set(tracking).size).toBe(PACKAGES - REFUSED.size);
    expect(new Set(ep.sold().map((s) => s.tracking_code))).toEqual(new Set(tracking));

    const csv = (await call2('GET', `/v1/ops/label-batches/${batchId}/summary.csv`)).bytes.toString().trim().split('\n');
    expect(csv.filter((l) => /,FAILED,/.test(l) && /Address is not deliverable/.test(l))).toHaveLength(REFUSED.size);

    const pdf = await call2('GET', `/v1/ops/label-batches/${batchId}/labels`);
    expect(pdf.status).toBe(200);
    const out = path.join(box.dir, 'batch.pdf');
    await writeFile(out, pdf.bytes);
    const { stdout } = await exec('pdfinfo', [out]);
    expect(stdout).toMatch(/^Pages:\s+190$/m);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 600_000);
});
