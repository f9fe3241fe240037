import { setTimeout as sleep } from 'node:timers/promises';
import { isSerializationFailure } from '../../db/client.js';
import type { Db, TxClient } from '../../db/types.js';

// Every write of the fulfillment area runs through writeTx. Rules that make it race-free on
// both databases (see docs/fulfillment.md):
//  - the FIRST statement of each transaction is a write (a compare-and-set UPDATE). On SQLite a
//    deferred BEGIN then takes the write lock at once (waiting busy_timeout), instead of reading
//    first and failing with SQLITE_BUSY when it later upgrades to a writer; on PostgreSQL that
//    UPDATE takes the row lock that serialises racing writers of the same fulfillment order.
//  - rows are locked in one order everywhere: fulfillment order -> package -> FO line items ->
//    order line items -> inventory levels (each sorted by id) -> order, so racers never deadlock.
//  - lost races surface as count 0 of a conditional UPDATE and become a 409; a serialization
//    failure or deadlock reported by the database is retried a few times.

const ATTEMPTS = 4;

export async function writeTx<T>(db: Db, fn: (tx: TxClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      // maxWait: on SQLite transactions queue on the adapter's mutex; give a burst time to drain.
      return await db.prisma.$transaction(fn, { maxWait: 15_000, timeout: 20_000 });
    } catch (err) {
      if (attempt >= ATTEMPTS || !isSerializationFailure(err)) throw err;
      await sleep(10 * attempt + Math.floor(Math.random() * 20));
    }
  }
}
