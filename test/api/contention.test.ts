import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { isTransientFailure } from '../../src/db/client.js';
import type { Db } from '../../src/db/types.js';
import { freshDb } from '../helpers/db.js';
import { createDelegation, createTeam } from '../../src/domain/teams/teams.js';
import { ledgerBalanced } from './inventory.fixtures.js';
import { levelFor } from '../../src/domain/inventory/ledger.js';
import { DomainError } from '../../src/domain/errors.js';
import type { TxClient } from '../../src/db/types.js';

// Issue 23 items 2 and 4: a busy or cut database answers 503 problem+json with retry-after
// (the CLI retries it), never 500. The errors are the database's own: a transaction that really
// expired (Prisma P2028) and, on PostgreSQL, a request in flight whose backend is terminated
// (57P01, as a failover or an operator's pg_terminate_backend does).

let db: Db;
let cleanup: () => Promise<void>;
let app: FastifyInstance;
let token: string;
let teamId: string;
beforeAll(async () => {
  ({ db, cleanup } = await freshDb());
  const boot = (await bootstrapIfEmpty(db))!;
  token = boot.token;
  teamId = boot.teamId;
  app = await buildApp({ db, config: { logger: false, unauthRateLimit: 0 } });
  // A route that runs a transaction outliving its timeout: Prisma refuses its next statement.
  app.get('/test/expired-transaction', { config: { public: true } }, async () =>
    db.prisma.$transaction(
      async (tx) => {
        await sleep(200);
        return tx.team.count();
      },
      { timeout: 20 },
    ),
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  await cleanup?.();
});

function expect503(res: { statusCode: number; headers: Record<string, unknown>; json(): any }) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(503);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.json()).toMatchObject({ status: 503, type: 'urn:fos:error:unavailable' });
}

describe('a busy database answers 503 with retry-after', () => {
  it('an expired transaction (P2028) is 503, not 500', async () => {
    const err = await db.prisma
      .$transaction(
        async (tx) => {
          await sleep(200);
          return tx.team.count();
        },
        { timeout: 20 },
      )
      .catch((e) => e);
    expect(isTransientFailure(err)).toBe(true);
    expect503(await app.inject({ method: 'GET', url: '/test/expired-transaction' }));
  });

  it("levelFor whose upsert comes back without its product (Prisma's second read in an expired transaction) is unavailable, not a TypeError", async () => {
    const expired = {
      inventoryLevel: { upsert: async () => ({ id: 'l', product_id: 'p', warehouse_id: 'w', product: null }) },
    } as unknown as TxClient;
    const err = await levelFor(expired, 'p', 'w').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unavailable'); // answered 503 with retry-after
  });

  it('PostgreSQL: a request whose connection is cut (57P01) is 503, and the next request works', async () => {
    if (db.provider !== 'postgresql') return expect(db.provider).toBe('sqlite'); // no backend to terminate on SQLite
    const merchant = (await createTeam(db, { name: 'Cut Merchant', kind: 'MERCHANT' })).id;
    await createDelegation(db, { merchant_team_id: merchant, fulfiller_team_id: teamId });
    const warehouseId = (
      await db.prisma.warehouse.create({
        data: { team_id: teamId, name: 'Main', address1: '1 Dock St', city: 'Reno', state: 'NV', zip: '89501', country: 'US' },
      })
    ).id;
    const sku = 'CUT-1';
    const product = await db.prisma.product.create({
      data: {
        team_id: merchant,
        merchant_team_id: merchant,
        fulfiller_team_id: teamId,
        name: sku,
        sku,
        measurement_unit: 'MM',
        weight_unit: 'G',
        weight: 1,
      },
    });
    const level = await db.prisma.inventoryLevel.create({ data: { product_id: product.id, warehouse_id: warehouseId } });
    const adjust = () =>
      app.inject({
        method: 'POST',
        url: '/v1/ops/inventory/adjustments',
        headers: { 'x-access-token': token },
        payload: { warehouse_id: warehouseId, reason: 'FOUND', lines: [{ sku, delta: 1 }] },
      });
    // Hold the level's row lock from another connection, so the request waits on it in flight.
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let holderPid = 0;
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const holder = db.prisma.$transaction(
      async (tx) => {
        holderPid = Number((await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0].pid);
        await tx.$executeRaw`SELECT 1 FROM inventory_levels WHERE id = ${level.id} FOR UPDATE`;
        locked();
        await released;
      },
      { timeout: 60_000, maxWait: 60_000 },
    );
    await isLocked;
    const pending = adjust();
    let waiting: { pid: number }[] = [];
    for (let i = 0; i < 600 && !waiting.length; i++) {
      waiting = await db.prisma.$queryRaw<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> ${holderPid}`;
      if (!waiting.length) await sleep(50);
    }
    expect(waiting).toHaveLength(1);
    await db.prisma.$queryRaw`SELECT pg_terminate_backend(${waiting[0].pid}::int)`;
    expect503(await pending);
    release();
    await holder;
    const after = await adjust();
    expect(after.statusCode, after.body).toBe(201);
    const [balanced] = await ledgerBalanced(db, [product.id]);
    expect(balanced.on_hand).toBe(1); // the cut request changed nothing, the next one applied once
  });
});
