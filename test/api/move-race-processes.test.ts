import { afterAll, beforeAll, describe, it } from 'vitest';
import { freshSqliteUrl } from '../helpers/db.js';
import { moveRaceScenarios } from '../helpers/move-races.js';
import { replicaWorld, startReplicas, type Replicas, type ReplicaWorld } from '../helpers/replicas.js';

// Two `fos serve` processes (the built CLI: `npm run build` first) on ONE SQLite file: a move or a
// split and a lock of the same fulfillment order from different processes (test/helpers/move-races.ts).

let w: ReplicaWorld;
let r: Replicas;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshSqliteUrl();
  cleanup = fresh.cleanup;
  w = await replicaWorld(fresh.url);
  r = await startReplicas(fresh.url, 2);
}, 90_000);
afterAll(async () => {
  await r?.stop();
  await w?.db.close();
  await cleanup?.();
});

const races = moveRaceScenarios(() => ({ w, r }));

describe('move and split vs lock across two fos serve processes on one SQLite file', () => {
  it(
    'move vs lock: never moved under a lock (a lock first refuses the move naming its holder), the ledger exact',
    () => races.moveVsLock(4),
    120_000,
  );
  it(
    'split vs lock: never split under a lock (a lock first refuses the split naming its holder), the ledger exact',
    () => races.splitVsLock(4),
    120_000,
  );
});
