// `fos serve` with FOS_NOW (docs/serve.md) bills by that clock: a fulfillment made through a real
// server process is charged on FOS_NOW's day, priced by the rate-card version in force then, and
// `fos invoices generate` for FOS_NOW's month bills it (issue 40: fulfillment charges carried the
// machine's date, so a month simulated with FOS_NOW was invoiced without them).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { createKey } from '../../src/domain/keys/keys.js';
import * as teams from '../../src/domain/teams/teams.js';
import type { TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { ship, type ShipCall } from '../helpers/rate-cards.js';
import { runFos, spawnServe, useServeSandbox } from '../helpers/serve-process.js';
import { ensureCliBundle } from '../cli/helpers/spawn.js';

const box = useServeSandbox();
const FOS_NOW = '2026-03-10T12:00:00Z';

/** A database with a merchant, its delegation, an admin key and an accepted order to ship. */
async function seeded(file: string) {
  await migrate(file);
  const db = await createDb(file);
  try {
    const boot = (await bootstrapIfEmpty(db))!;
    const merchant = await teams.createTeam(db, { name: 'Merchant', kind: 'MERCHANT' });
    const delegation = await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: boot.teamId });
    const key = await createKey(db, boot.teamId, { name: 'admin', power_role: 'ADMIN', rate_tier: 4 }, null);
    // The fixture writes rows only (db, teamId): no app runs in this process.
    const fixtureApp = { db, teamId: boot.teamId } as unknown as TestApp;
    const f = await fulfillmentFixture(fixtureApp, { merchantTeamId: merchant.id, lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    return { f, token: key.token, merchantTeamId: merchant.id, delegationId: delegation.id };
  } finally {
    await db.close();
  }
}

const fees = (k: number) => [
  { id: 'ship', event: 'SHIPPING', price: { type: 'LABEL_MARKUP', markup_percent: 0, amount: k } },
  { id: 'pack', event: 'PACK', price: { type: 'PER_ORDER', amount: k } },
];

describe('fos serve with FOS_NOW bills by that clock', () => {
  it("charges a fulfillment on FOS_NOW's day by the version in force then, and invoices it in FOS_NOW's month", async () => {
    await ensureCliBundle();
    const file = path.join(box.dir, 'fos.db');
    const s = await seeded(file);
    const server = box.track(await spawnServe(['--db', file, '--port', '0'], { ...box.env, FOS_NOW }, box.dir).started);
    const call: ShipCall = async (method, url, body) => {
      const res = await fetch(`${new URL(server.url).origin}${url}`, {
        method,
        headers: { 'x-access-token': s.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { statusCode: res.status, body: text, json: () => JSON.parse(text) };
    };
    const ok = async (method: string, url: string, body: unknown, status: number) => {
      const res = await call(method, url, body);
      expect(res.statusCode, res.body).toBe(status);
      return res.json();
    };
    const v1 = await ok(
      'POST',
      '/v1/ops/rate-cards/versions',
      { rate_card_name: 'Std', semantic_version: '1.0.0', effective_at: '2020-01-01T00:00:00Z', currency: 'USD', fees: fees(1) },
      201,
    );
    // In force by the machine's clock, not yet by FOS_NOW's.
    await ok(
      'POST',
      '/v1/ops/rate-cards/versions',
      { rate_card_name: 'Std', semantic_version: '2.0.0', effective_at: '2026-04-01T00:00:00Z', currency: 'USD', fees: fees(9) },
      201,
    );
    await ok('PUT', `/v1/ops/delegations/${s.delegationId}/rate-card-id`, { rate_card_id: v1.rate_card_id }, 200);

    await ship(s.f, call, { cost: 10 });
    const charges = (await ok('GET', `/v1/ops/charges?order_id=${s.f.order.id}`, undefined, 200)).data;
    expect(charges.map((c: any) => [c.category, c.created_at.slice(0, 10), c.pricing_trace.semantic_version]).sort()).toEqual([
      ['PACK', '2026-03-10', '1.0.0'],
      ['SHIPPING', '2026-03-10', '1.0.0'],
    ]);

    // The CLI against that server: the month's invoice holds both.
    const env = { ...box.env, FOS_BASE_URL: server.url, FOS_API_KEY: s.token };
    const gen = await runFos(['invoices', 'generate', '--merchant', s.merchantTeamId, '--month', '2026-03', '--json'], {
      env,
      cwd: box.dir,
    });
    expect(gen.code, gen.stderr).toBe(0);
    const inv = JSON.parse(gen.stdout);
    expect(inv).toMatchObject({ period_start: '2026-03-01', period_end: '2026-03-31', charge_count: 2, subtotal: 12 }); // 10 + 1, 1
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 180_000);

  it("the demo bills the month before FOS_NOW, and its opening receipts on FOS_NOW's day", async () => {
    const env = { ...box.env, FOS_DATA_DIR: path.join(box.dir, 'demo-data'), FOS_NOW: '2026-03-15T10:00:00Z' };
    const demo = box.track(await spawnServe(['--demo', '--port', '0'], env, box.dir).started);
    const token = /API key \(shown once\): (\S+)/.exec(demo.stderr())![1];
    const get = async (url: string) => {
      const res = await fetch(`${demo.url}${url}`, { headers: { 'x-access-token': token } });
      expect(res.status, url).toBe(200);
      return (await res.json()) as any;
    };
    const invoices = (await get('/ops/invoices')).data;
    expect(invoices.map((i: any) => [i.period_start, i.period_end, i.status])).toEqual([['2026-02-01', '2026-02-28', 'DRAFT']]);
    const open = (await get('/ops/charges?invoice_id=none&limit=100')).data;
    expect(open.length).toBeGreaterThan(0);
    expect(new Set(open.map((c: any) => c.created_at.slice(0, 10)))).toEqual(new Set(['2026-03-15']));
    demo.child.kill('SIGTERM');
    expect((await demo.exited).code).toBe(0);
  }, 180_000);
});
