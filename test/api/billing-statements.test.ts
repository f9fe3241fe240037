import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { link, publish, shipPackage } from '../helpers/rate-cards.js';
import { chargePayload } from '../../src/domain/charges/pricing-record.js';

// The statements a versioned rate card adds to a fulfillment (docs/billing.md, "Speed"): the
// fulfillment's own (test/api/fulfillment-statements.test.ts: 38 without billing) plus the billing
// inputs (one read, the version in force included), the package's products for pick fees (one
// read), the SHIPPING, PICK, PACK and PACKAGING charges (one insert) and their charge.created events
// (one insert): 4. The version is read only the first time it prices (compiled, then cached).
const FULFILLMENT = 38;
const BILLING = 4;

const sqlite = (process.env.FOS_TEST_DB ?? 'sqlite') === 'sqlite';
let t: TestApp;
let token: string;
let merchant: { teamId: string; delegationId: string };

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
  const fees = [
    { id: 'ship', event: 'SHIPPING', price: { type: 'LABEL_MARKUP', markup_percent: 10 } },
    { id: 'pick', event: 'PICK', price: { type: 'FIRST_ADDITIONAL', first: 1, additional: 0.3 } },
    { id: 'pack', event: 'PACK', price: { type: 'PER_ORDER', amount: 0.5 } },
    { id: 'box', event: 'PACKAGING', price: { type: 'FLAT', amount: 0.4 } },
  ];
  const v = await publish(t, token, {
    rate_card_name: 'Stmts',
    semantic_version: '1.0.0',
    effective_at: '2020-01-01T00:00:00Z',
    currency: 'USD',
    fees,
  });
  await link(t, token, merchant.delegationId, v.rate_card_id);
  await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 1 }], carton_id: 'BOX' }); // the version compiled
});
afterAll(() => t?.close());

describe.runIf(sqlite)('statements a versioned rate card adds to a fulfillment', () => {
  it(`bills four fees in at most ${BILLING} more statements`, async () => {
    expect((await t.call('GET', '/v1/ops/rate-cards', { token })).statusCode).toBe(200); // the key, resolved
    const statements: string[] = [];
    const lines = [{ quantity: 2 }, { quantity: 1 }];
    const shipped = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines, carton_id: 'BOX', record: statements });
    if (process.env.FOS_SHOW_STATEMENTS) console.info(statements.map((s) => s.slice(0, 100)).join('\n'));
    expect(Object.keys(shipped.byCategory).sort()).toEqual(['PACK', 'PACKAGING', 'PICK', 'SHIPPING']);
    const billing = statements.filter((s) => /rate_card_versions|package_line_items" pli|INSERT INTO "charges"/.test(s));
    expect(billing).toHaveLength(3);
    expect(statements.length).toBeLessThanOrEqual(FULFILLMENT + BILLING);
  });
});

describe('charge.created of a versioned card', () => {
  // The events' text is made from the JSON the charge insert wrote (billing.ts insertBilled):
  // each payload must read exactly as the charge does, to each team once.
  it('carries each charge as it reads, to the fulfiller and to the merchant', async () => {
    const shipped = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 3 }], carton_id: 'BOX' });
    expect(shipped.charges).toHaveLength(4);
    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'charge.created' } });
    for (const charge of shipped.charges) {
      const told = events.filter((e) => (e.payload as { id?: string }).id === charge.id);
      expect(told.map((e) => e.team_id).sort()).toEqual([charge.fulfiller_team_id, charge.merchant_team_id].sort());
      for (const e of told) expect(e.payload).toStrictEqual(chargePayload(charge));
      // The members' order too, where the database keeps it (PostgreSQL's JSONB orders keys its own way).
      if (sqlite) expect(JSON.stringify(told[0].payload)).toBe(JSON.stringify(chargePayload(charge)));
    }
  });
});
