import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/domain/keys/keys.js';
import { WINDOW_MS } from '../../src/server/rate-limit/stores.js';
import { freshPostgresUrl } from '../helpers/db.js';
import { raceScenarios } from '../helpers/replica-races.js';
import { replicaWorld, startReplicas, type Replicas, type ReplicaWorld } from '../helpers/replicas.js';

// Two `fos serve` processes (the built CLI: `npm run build` first) on ONE fresh PostgreSQL
// database, like two replicas behind a load balancer: fulfills race across them and quantities
// come out exact; the tier-1 rate budget is shared (30 across both replicas, the 31st is 429).

let w: ReplicaWorld;
let r: Replicas;
let drop: () => Promise<void>;
let url: string;

beforeAll(async () => {
  const fresh = await freshPostgresUrl();
  drop = fresh.drop;
  url = fresh.url;
  w = await replicaWorld(fresh.url);
  r = await startReplicas(fresh.url, 2);
}, 90_000);
afterAll(async () => {
  await r?.stop();
  await w?.db.close();
  await drop?.();
});

const races = raceScenarios(() => ({ w, r }));

describe('two fos serve replicas on one PostgreSQL database', () => {
  it('lock: 10 owners racing across both replicas, exactly one wins', () => races.lockRace());
  it('fulfill: one package from both replicas at once, one 200 and one 409, decremented once', () => races.samePackageFulfillRace(5));
  it('fulfill: two fulfillment orders over-claiming one order line, one per replica: exactly one goes through', () =>
    races.overClaimRace(3));
  it('packages: creates racing across replicas never allocate more than remains', () => races.packageCreateRace());
  it(
    'inventory: receipts, adjustments, a count, converts and fulfills of one level across both replicas: the ledger explains every unit',
    () => races.inventoryRace(),
    120_000,
  );

  it(
    'contention: 12 requests in flight on one purchase order and one SKU across both replicas: only 2xx, 409 or 503 with retry-after, and the ledger explains every unit',
    () => races.contentionRace(2),
    120_000,
  );

  it('rate limit: one tier-1 key gets 30 requests across both replicas, the 31st is 429', async () => {
    const key = (await createKey(w.db, w.teamId, { name: 'tier one', power_role: 'ADMIN' }, 'test')).token;
    // A pair of its own with a fixed clock (mid-window), so the burst cannot straddle a window.
    const fixed = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS / 2;
    const pair = await startReplicas(url, 2, { env: { FOS_TEST_CLOCK_MS: String(fixed) } });
    try {
      await burst(pair, key);
    } finally {
      await pair.stop();
    }
  }, 90_000);
});

async function burst(r: Replicas, key: string) {
  const statuses: number[] = [];
  for (let i = 0; i < 30; i += 2) {
    const pair = await Promise.all([r.send(i, 'GET', '/me', undefined, key), r.send(i + 1, 'GET', '/me', undefined, key)]);
    statuses.push(...pair.map((x) => x.status));
  }
  expect(statuses).toEqual(Array(30).fill(200));
  const over = await r.send(0, 'GET', '/me', undefined, key);
  expect(over.status).toBe(429);
  expect(over.body.type).toBe('urn:fos:error:rate-limited');
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await r.send(1, 'GET', '/me', undefined, key)).status).toBe(429);
}
