import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';
import { freshPostgresUrl, freshSqliteUrl, migrateBefore } from '../helpers/db.js';

// A fulfillment's charges are one per category by their billing key, not by a unique index of
// their own (billing a fulfillment paid for both): the migration gives the JSON rate card's
// SHIPPING charges, written without a key before, the key a versioned card's SHIPPING charge has,
// and leaves every other charge as it was.

const postgres = /^postgres/.test(process.env.FOS_TEST_DB ?? '');
const MIGRATION = '20261129114848_charges_fulfillment_category_by_billing_key';
let url: string;
let db: Db;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  const fresh = postgres ? await freshPostgresUrl() : await freshSqliteUrl();
  cleanups.push(fresh.cleanup);
  url = fresh.url;
  await migrateBefore(url, MIGRATION); // as a database of the previous release
  db = await createDb(url);
}, 120_000);
afterAll(async () => {
  await db?.close();
  for (const c of cleanups.reverse()) await c();
});

const charge = (category: string, fulfillment_id: string | null, billing_key: string | null) =>
  db.prisma.charge.create({
    data: {
      name: `${category} charge`,
      category,
      quantity: 1,
      calculated_amount: 5,
      original_amount: 5,
      merchant_team_id: 'merchant',
      fulfiller_team_id: 'fulfiller',
      fulfillment_id,
      billing_key,
    },
  });

describe(`the charges' billing-key migration (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it("keys the JSON card's SHIPPING charges of fulfillments and nothing else; a second one for a fulfillment is refused", async () => {
    const legacy = await charge('SHIPPING', 'f-json-card', null);
    const carded = await charge('PICK', 'f-card', 'PICK:fulfillment:f-card');
    const correction = await charge('SHIPPING', null, null); // a carrier-invoice correction: no fulfillment
    const receiving = await charge('RECEIVING', null, null);

    expect((await migrate(url)).applied).toEqual([MIGRATION]);

    const key = async (id: string) => (await db.prisma.charge.findUniqueOrThrow({ where: { id } })).billing_key;
    expect(await key(legacy.id)).toBe('SHIPPING:fulfillment:f-json-card');
    expect(await key(carded.id)).toBe('PICK:fulfillment:f-card');
    expect(await key(correction.id)).toBeNull();
    expect(await key(receiving.id)).toBeNull();
    // The billing key is the fulfillment's one SHIPPING charge now; keyless charges are not limited by it.
    await expect(charge('SHIPPING', 'f-json-card', 'SHIPPING:fulfillment:f-json-card')).rejects.toThrow();
    await charge('SHIPPING', null, null);
    expect(await db.prisma.charge.count()).toBe(5);
  });
});
